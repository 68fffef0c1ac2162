"""The embedded default Neo4j: Community jars from Maven Central, run by a single-file Java launcher.

`start` returns once Bolt answers; a second `start` finds the running server and returns. Every failure
(no JDK, no Maven, port in use, a server that never answers) raises `ConfigError` with one line a user
can act on, plus the log's tail where there is one.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from graphmem.config import Settings
from graphmem.db.memory import heap_size, pagecache_size
from graphmem.errors import ConfigError
from graphmem.private_files import create_private, is_within, move_private, private_dir

LAUNCHER_SOURCE = Path(__file__).with_name("EmbeddedNeo4j.java")
JVM_DIR = Path("/usr/lib/jvm")

POM_TEMPLATE = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>graphmem</groupId><artifactId>embedded-neo4j</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.neo4j</groupId><artifactId>neo4j</artifactId><version>{v}</version></dependency>
    <dependency><groupId>org.neo4j</groupId><artifactId>neo4j-bolt</artifactId><version>{v}</version></dependency>
  </dependencies>
</project>
"""


# Addresses LOAD CSV may not fetch from: loopback, private, link-local and unspecified networks.
PRIVATE_NETWORKS = (
    "127.0.0.0/8", "0.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
    "100.64.0.0/10", "::1/128", "::/128", "::ffff:0:0/96", "fc00::/7", "fe80::/10",
)  # fmt: skip


def required_java_major(neo4j_version: str) -> int:
    """Neo4j 2025.x+ needs Java 21; 5.x runs on 17."""
    major = int(neo4j_version.split(".")[0])
    return 21 if major >= 2025 else 17


def _java_major(java: Path) -> int | None:
    try:
        out = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30).stderr
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def find_java(settings: Settings) -> Path:
    """The newest JDK that can run the configured Neo4j: GRAPHMEM_JAVA_HOME, JAVA_HOME, /usr/lib/jvm, PATH."""
    need = required_java_major(settings.neo4j_version)
    candidates: list[Path] = []
    if settings.java_home:
        candidates.append(settings.java_home / "bin" / "java")
    if os.environ.get("JAVA_HOME"):
        candidates.append(Path(os.environ["JAVA_HOME"]) / "bin" / "java")
    if JVM_DIR.is_dir():
        # Temurin first (the project's documented runtime), then any other JDK, newest first.
        jdks = sorted(JVM_DIR.iterdir(), key=lambda p: ("temurin" not in p.name, p.name), reverse=False)
        candidates.extend(p / "bin" / "java" for p in jdks)
    on_path = shutil.which("java")
    if on_path:
        candidates.append(Path(on_path))
    best: tuple[int, Path] | None = None
    for java in candidates:
        if not java.is_file():
            continue
        major = _java_major(java)
        if major is not None and major >= need and (best is None or major > best[0]):
            best = (major, java)
    if best is None:
        raise ConfigError(
            f"no Java {need}+ runtime found for Neo4j {settings.neo4j_version}: install a JDK "
            f"(e.g. Temurin 25 under /usr/lib/jvm) or set GRAPHMEM_JAVA_HOME"
        )
    return best[1]


@dataclass(frozen=True)
class EmbeddedPaths:
    home: Path

    @property
    def conf(self) -> Path:
        return self.home / "neo4j.conf"

    @property
    def pid(self) -> Path:
        return self.home / "graphmem-neo4j.pid"

    @property
    def log(self) -> Path:
        return self.home / "graphmem-neo4j.log"

    @property
    def import_dir(self) -> Path:
        """The server's own, empty import folder (LOAD CSV file URLs are off anyway)."""
        return self.home / "import"

    @property
    def legacy_password(self) -> Path:
        """Where the generated password used to be kept: inside the data folder, readable by the server."""
        return self.home / "password"


class EmbeddedNeo4j:
    """Lifecycle of the embedded Neo4j for one data folder."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.paths = EmbeddedPaths(settings.neo4j_data_dir.expanduser().resolve())

    # --- jars -----------------------------------------------------------------------------------
    @property
    def lib_dir(self) -> Path:
        return self.settings.cache_dir.expanduser() / "neo4j" / self.settings.neo4j_version / "lib"

    def fetch(self) -> Path:
        """Resolve org.neo4j:neo4j and org.neo4j:neo4j-bolt into the cache (once per version)."""
        marker = self.lib_dir / ".complete"
        if marker.exists():
            return self.lib_dir
        mvn = shutil.which("mvn")
        if mvn is None:
            raise ConfigError("Maven ('mvn') is needed once to fetch Neo4j from Maven Central: apt-get install maven")
        self.lib_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            pom = Path(tmp) / "pom.xml"
            pom.write_text(POM_TEMPLATE.format(v=self.settings.neo4j_version), encoding="utf-8")
            proc = subprocess.run(
                [mvn, "-q", "-B", "-f", str(pom), "dependency:copy-dependencies",
                 f"-DoutputDirectory={self.lib_dir}", "-DincludeScope=runtime"],
                capture_output=True, text=True, timeout=1800,
            )  # fmt: skip
        if proc.returncode != 0:
            tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
            raise ConfigError(
                f"could not fetch Neo4j {self.settings.neo4j_version} from Maven Central "
                f"(is it reachable, and is the version right?): {tail}"
            )
        marker.touch()
        return self.lib_dir

    # --- settings files -------------------------------------------------------------------------
    @property
    def password_file(self) -> Path:
        """The generated password's file: in the owner-only secrets folder, never in the data folder."""
        return self.settings.secrets_dir.expanduser() / "neo4j-password"

    def password(self) -> str:
        """NEO4J_PASSWORD when set, else a random password generated once and kept in `password_file`
        (one left in the data folder by an older graphmem moves there)."""
        if self.settings.neo4j_password:
            return self.settings.neo4j_password
        self._check_secrets_outside_data()
        move_private(self.paths.legacy_password, self.password_file)
        self.paths.legacy_password.unlink(missing_ok=True)
        return create_private(self.password_file, secrets.token_urlsafe(18) + "\n").strip()

    def _check_secrets_outside_data(self) -> None:
        for name, path in (("GRAPHMEM_SECRETS_DIR", self.settings.secrets_dir),
                           ("GRAPHMEM_API_KEY_FILE", self.settings.api_key_file)):  # fmt: skip
            if path is not None and is_within(path, self.paths.home):
                raise ConfigError(
                    f"{name} ({path}) lies inside the Neo4j data folder {self.paths.home} "
                    f"(GRAPHMEM_NEO4J_DATA): the database could read it; keep secrets in a separate folder"
                )

    def _write_conf(self) -> None:
        port = self.settings.neo4j_port
        lines = [
            "server.bolt.enabled=true",
            f"server.bolt.listen_address=127.0.0.1:{port}",
            f"server.bolt.advertised_address=127.0.0.1:{port}",
            "server.http.enabled=false",
            "dbms.security.auth_enabled=true",
            # LOAD CSV may not read local files: no file URLs, and an empty import folder of its own.
            "dbms.security.allow_csv_import_from_file_urls=false",
            f"server.directories.import={self.paths.import_dir}",
            # nor fetch URLs on this machine or its private networks (the service's /metrics, for one).
            f"internal.dbms.cypher_ip_blocklist={','.join(PRIVATE_NETWORKS)}",
            f"server.memory.pagecache.size={pagecache_size(self.settings.neo4j_pagecache)}",
            "db.tx_log.rotation.retention_policy=2 files",
        ]
        self.paths.conf.write_text("\n".join(lines) + "\n", encoding="utf-8")

    # --- process --------------------------------------------------------------------------------
    def _running_pid(self) -> int | None:
        try:
            pid = int(self.paths.pid.read_text().strip())
        except (OSError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except OSError:
            return None
        cmdline = Path(f"/proc/{pid}/cmdline")
        if cmdline.exists() and b"EmbeddedNeo4j" not in cmdline.read_bytes():
            return None  # a recycled pid
        return pid

    def _port_open(self) -> bool:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            return sock.connect_ex(("127.0.0.1", self.settings.neo4j_port)) == 0

    def log_tail(self, lines: int = 15) -> str:
        if not self.paths.log.exists():
            return "(no log)"
        text = self.paths.log.read_text(encoding="utf-8", errors="replace").splitlines()
        interesting = [line for line in text if not line.startswith("WARNING:")]
        return "\n".join(interesting[-lines:])

    def start(self) -> str:
        """Start (or find running) and return the Bolt URI once it answers."""
        uri = self.settings.embedded_uri
        if self._running_pid() is not None:
            self._wait_for_bolt(None)
            return uri
        if self._port_open():
            raise ConfigError(
                f"port {self.settings.neo4j_port} is already in use by another process: "
                f"stop it or set GRAPHMEM_NEO4J_PORT to a free port"
            )
        java = find_java(self.settings)
        lib = self.fetch()
        self.paths.home.mkdir(parents=True, exist_ok=True)
        self._check_secrets_outside_data()
        private_dir(self.paths.import_dir)
        self._write_conf()
        env = dict(os.environ, GRAPHMEM_NEO4J_PASSWORD=self.password())
        heap = heap_size(self.settings.neo4j_heap)
        cmd = [
            str(java), f"-Xmx{heap}", f"-Xms{heap}",
            "-XX:+UseG1GC", "--enable-native-access=ALL-UNNAMED",
            "-cp", f"{lib}/*", str(LAUNCHER_SOURCE), str(self.paths.home),
        ]  # fmt: skip
        with self.paths.log.open("w", encoding="utf-8") as log:
            proc = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
            )
        self.paths.pid.write_text(f"{proc.pid}\n")
        self._wait_for_bolt(proc)
        return uri

    def _wait_for_bolt(self, proc: subprocess.Popen[bytes] | None) -> None:
        deadline = time.monotonic() + self.settings.neo4j_start_timeout_s
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                raise ConfigError(
                    f"embedded Neo4j exited with code {proc.returncode} before Bolt answered; "
                    f"log tail ({self.paths.log}):\n{self.log_tail()}"
                )
            if self._port_open() and "graphmem-neo4j ready" in self._log_text():
                return
            time.sleep(0.5)
        if proc is not None:
            self._terminate(proc.pid)
        raise ConfigError(
            f"embedded Neo4j did not answer on port {self.settings.neo4j_port} within "
            f"{self.settings.neo4j_start_timeout_s:.0f}s (GRAPHMEM_NEO4J_START_TIMEOUT); "
            f"log tail ({self.paths.log}):\n{self.log_tail()}"
        )

    def _log_text(self) -> str:
        try:
            return self.paths.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def stop(self) -> bool:
        """Stop the server; False when none was running."""
        pid = self._running_pid()
        if pid is None:
            self.paths.pid.unlink(missing_ok=True)
            return False
        self._terminate(pid)
        self.paths.pid.unlink(missing_ok=True)
        return True

    def _terminate(self, pid: int, grace_s: float = 60.0) -> None:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            with contextlib.suppress(ChildProcessError):  # reap it when it is our child
                os.waitpid(pid, os.WNOHANG)
            time.sleep(0.2)
        os.kill(pid, signal.SIGKILL)

    def kill(self) -> None:
        """SIGKILL, for fault-injection tests: no clean shutdown."""
        pid = self._running_pid()
        if pid is not None:
            os.kill(pid, signal.SIGKILL)

    def is_running(self) -> bool:
        return self._running_pid() is not None
