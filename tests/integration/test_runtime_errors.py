"""Bad configuration gives one clear line and a non-zero exit — never a stack trace as the only message."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.db.embedded import EmbeddedNeo4j, find_java
from graphmem.db.store import ServerInfo
from graphmem.errors import ConfigError, StoreUnavailable

GRAPHMEM = [sys.executable, "-m", "graphmem.cli"]


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))}
    full_env.update(env)
    return subprocess.run(GRAPHMEM + args, capture_output=True, text=True, env=full_env, timeout=300)


def _assert_one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr + proc.stdout
    message = (proc.stderr or proc.stdout).strip()
    first = message.splitlines()[0]
    for needle in needles:
        assert needle in first, first


def test_wrong_password_is_one_line(neo4j_server) -> None:
    proc = _run(["neo4j", "status"], NEO4J_URI=neo4j_server.uri, NEO4J_PASSWORD="definitely-wrong")
    assert proc.returncode == 1
    assert "refused the credentials" in proc.stdout and "NEO4J_PASSWORD" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_status_of_reachable_server_prints_version_and_uri(neo4j_server) -> None:
    proc = _run(
        ["neo4j", "status"],
        NEO4J_URI=neo4j_server.uri,
        NEO4J_USER=neo4j_server.user,
        NEO4J_PASSWORD=neo4j_server.password,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert neo4j_server.uri in proc.stdout and "Neo4j 20" in proc.stdout


def test_unreachable_server_exits_1(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = _run(["neo4j", "status"], NEO4J_URI=f"bolt://127.0.0.1:{port}", NEO4J_PASSWORD="x")
    assert proc.returncode == 1 and "not reachable" in proc.stdout


def test_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _run(["neo4j", "start"], GRAPHMEM_NEO4J_PORT=str(port), GRAPHMEM_NEO4J_DATA=str(tmp_path / "data"))
    _assert_one_line_error(proc, f"port {port} is already in use", "GRAPHMEM_NEO4J_PORT")


def test_maven_unreachable_or_unknown_version_is_one_line(tmp_path: Path) -> None:
    proc = _run(
        ["neo4j", "fetch"],
        GRAPHMEM_NEO4J_VERSION="0.0.0-no-such-version",
        GRAPHMEM_CACHE_DIR=str(tmp_path / "cache"),
    )
    _assert_one_line_error(proc, "could not fetch Neo4j 0.0.0-no-such-version from Maven Central")


def test_invalid_setting_names_the_variable() -> None:
    proc = _run(["neo4j", "status"], NEO4J_URI="http://localhost:7474")
    _assert_one_line_error(proc, "NEO4J_URI")


def test_no_jdk_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import graphmem.db.embedded as embedded

    monkeypatch.setattr(embedded, "JVM_DIR", tmp_path / "no-jvms")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError) as caught:
        find_java(Settings())
    assert "no Java 21+ runtime found" in str(caught.value) and "\n" not in str(caught.value)


def test_server_too_old_for_vector_indexes(neo4j_server) -> None:
    with Store(neo4j_server.uri, neo4j_server.user, neo4j_server.password) as old:
        old.__dict__["server"] = ServerInfo("5.11.0", "community")  # as a 5.11 server reports itself
        with pytest.raises(ConfigError, match="too old"):
            old.verify()


def test_embedded_start_twice_is_harmless_and_stop_works(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = Settings(
        GRAPHMEM_NEO4J_PORT=port, GRAPHMEM_NEO4J_DATA=tmp_path / "db", NEO4J_PASSWORD="pw-for-this-test",
        GRAPHMEM_NEO4J_HEAP="512m", GRAPHMEM_NEO4J_PAGECACHE="64m",
    )  # fmt: skip
    server = EmbeddedNeo4j(settings)
    try:
        assert server.start() == f"bolt://127.0.0.1:{port}"
        assert server.start() == f"bolt://127.0.0.1:{port}"  # finds the running one
        with Store.from_settings(settings) as store:
            assert store.verify().supports_search_clause
        with Store(settings.embedded_uri, "neo4j", "wrong-password") as bad, pytest.raises(StoreUnavailable):
            bad.verify()
    finally:
        assert server.stop()
    assert not server.is_running()
    assert not server.stop()
