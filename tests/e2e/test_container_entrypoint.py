"""The Docker path without a Docker engine: the image's entrypoint (docker/entrypoint.sh) and health check
(the Dockerfile's HEALTHCHECK) run in a venv holding the wheel, as the container runs them. It waits for
Neo4j, installs the schema, takes the clients' key from GRAPHMEM_API_KEY (or mints a development key) and
serves; GraphiQL's assets come from GRAPHMEM_CACHE_DIR, where the image's build fetched them."""

from __future__ import annotations

import json
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from graphmem.api.graphiql import ASSETS
from graphmem.config import Settings
from tests.support.api_graph import TcpRelay, error_codes
from tests.support.installed_wheel import REPO, InstalledWheel, installed_wheel
from tests.support.service import free_port

pytestmark = pytest.mark.integration

ENTRYPOINT = REPO / "docker" / "entrypoint.sh"
FACTS = "query($s: String!) { semantics(space: $s) { edges { node { text } } } }"


@pytest.fixture(scope="module")
def wheel() -> InstalledWheel:
    return installed_wheel()


def healthcheck_command() -> list[str]:
    """The Dockerfile's HEALTHCHECK command (exec form)."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    match = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])\s*$", text, flags=re.MULTILINE)
    assert match, "the Dockerfile has no exec-form HEALTHCHECK"
    return list(json.loads(match.group(1)))


def container_env(wheel: InstalledWheel, tmp_path: Path, **extra: str) -> dict[str, str]:
    """What docker-compose.yml and the image's ENV set, pointed at this machine's folders and ports."""
    return wheel.env(
        NEO4J_USER="neo4j",
        GRAPHMEM_HOST="127.0.0.1",
        GRAPHMEM_PORT=str(free_port()),
        GRAPHMEM_SECRETS_DIR=str(tmp_path / "state"),
        GRAPHMEM_CACHE_DIR=str(tmp_path / "cache"),
        GRAPHMEM_EMBEDDER="hashing:384",
        GRAPHMEM_LOG_FORMAT="text",
        **extra,
    )


@contextmanager
def entrypoint(wheel: InstalledWheel, env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[str]]:
    with log.open("w") as out:
        proc = subprocess.Popen(
            ["sh", str(ENTRYPOINT)], cwd=wheel.outside, env=env, stdout=out, stderr=subprocess.STDOUT, text=True
        )
        try:
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=30)


def wait_for(check, proc: subprocess.Popen[str], log: Path, what: str, seconds: float = 240) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        if proc.poll() is not None:
            pytest.fail(f"the entrypoint exited ({proc.returncode}) before {what}:\n{log.read_text()[-3000:]}")
        time.sleep(0.3)
    pytest.fail(f"no {what} within {seconds} s:\n{log.read_text()[-3000:]}")


def answers(base: str) -> bool:
    try:
        return httpx.get(base + "/healthz", timeout=10).status_code == 200
    except httpx.HTTPError:
        return False


def graphql(base: str, key: str | None, space: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.post(base + "/graphql", json={"query": FACTS, "variables": {"s": space}}, headers=headers, timeout=60)


def test_entrypoint_waits_for_neo4j_then_serves_graphiql_and_the_key_from_the_environment(
    wheel: InstalledWheel,
    neo4j_server,
    space: str,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    fetched = Settings().cache_dir / "graphiql"  # where `make setup` ran `python -m graphmem.api.graphiql fetch`
    if not all((fetched / name).is_file() for name in ASSETS):
        pytest.skip("GraphiQL's assets are not fetched here: run `make graphiql`")
    shutil.copytree(fetched, tmp_path / "cache" / "graphiql")
    target = urlparse(neo4j_server.uri)
    relay = TcpRelay(target.hostname or "127.0.0.1", target.port or 7687)  # Neo4j "still starting": closed
    key = "gmk_compose_" + secrets.token_urlsafe(24)
    env = container_env(
        wheel,
        tmp_path,
        NEO4J_URI=f"bolt://127.0.0.1:{relay.port}",
        NEO4J_PASSWORD=neo4j_server.password,
        GRAPHMEM_API_KEY=key,
    )
    base = f"http://127.0.0.1:{env['GRAPHMEM_PORT']}"
    log = tmp_path / "entrypoint.log"
    try:
        with entrypoint(wheel, env, log) as proc:
            wait_for(lambda: "waiting for Neo4j" in log.read_text(), proc, log, "wait for Neo4j")
            relay.start()
            wait_for(lambda: answers(base), proc, log, "answer on /healthz")

            health = subprocess.run(healthcheck_command(), env=env, capture_output=True, timeout=30, check=False)
            assert health.returncode == 0, health.stderr
            assert error_codes(graphql(base, None, space).json()) == ["UNAUTHENTICATED"]
            assert error_codes(graphql(base, "gmk_wrong_" + secrets.token_urlsafe(24), space).json()) == [
                "UNAUTHENTICATED"
            ]
            allowed = graphql(base, key, space)
            assert allowed.status_code == 200 and allowed.json() == {"data": {"semantics": {"edges": []}}}
            page = httpx.get(base + "/graphql", headers={"Accept": "text/html"}, timeout=60)
            assert "graphiql.min.js" in page.text and "not installed" not in page.text
            assert httpx.get(base + "/graphql/assets/graphiql.min.js", timeout=60).status_code == 200
        logged = log.read_text()
        assert "clients send GRAPHMEM_API_KEY" in logged and key not in logged
        stopped = subprocess.run(healthcheck_command(), env=env, capture_output=True, timeout=30, check=False)
        assert stopped.returncode != 0
    finally:
        relay.stop()


def test_without_a_key_the_entrypoint_mints_a_development_key_once(
    wheel: InstalledWheel,
    neo4j_server,
    space: str,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    env = container_env(wheel, tmp_path, NEO4J_URI=neo4j_server.uri, NEO4J_PASSWORD=neo4j_server.password)
    base = f"http://127.0.0.1:{env['GRAPHMEM_PORT']}"
    dev_key = tmp_path / "state" / "dev-api-key"
    log = tmp_path / "entrypoint.log"
    with entrypoint(wheel, env, log) as proc:
        wait_for(lambda: answers(base), proc, log, "answer on /healthz")
        key = dev_key.read_text().strip()
        assert graphql(base, key, space).json() == {"data": {"semantics": {"edges": []}}}

    def image_command(*args: str) -> str:  # `docker compose run --rm graphmem ARGS`
        run = subprocess.run(["sh", str(ENTRYPOINT), *args], env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return run.stdout

    def dev_keys() -> list[str]:  # the store may be the shared test database: count this key's records only
        listed = [json.loads(line) for line in image_command("keys", "list").splitlines()]
        return [
            k["key_id"] for k in listed if k["name"] == "local development" and key.startswith(f"gmk_{k['key_id']}_")
        ]

    assert len(dev_keys()) == 1
    image_command("keys", "ensure-dev")  # what the entrypoint runs again on a restart
    assert dev_key.read_text().strip() == key  # the state volume keeps the key: a restart mints no other
    assert len(dev_keys()) == 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"NEO4J_URI": ""}, "NEO4J_URI is not set"),
        ({"GRAPHMEM_API_KEY": "short"}, "GRAPHMEM_API_KEY is too short"),
        ({"GRAPHMEM_API_KEY": "gmk_" + "x" * 20 + "|read|*"}, "GRAPHMEM_API_KEY may not contain"),
        ({"GRAPHMEM_NEO4J_WAIT": "soon"}, "GRAPHMEM_NEO4J_WAIT must be a whole number"),
        ({"NEO4J_URI": "http://neo4j:7474"}, "invalid setting NEO4J_URI"),
        ({"GRAPHMEM_NEO4J_WAIT": "1"}, "Neo4j did not answer within 1 s"),
    ],
)
def test_entrypoint_refuses_bad_settings_with_one_clear_line(
    wheel: InstalledWheel, tmp_path: Path, settings: dict[str, str], message: str
) -> None:
    closed = f"bolt://127.0.0.1:{free_port()}"  # nothing listens there
    env = container_env(wheel, tmp_path, **{"NEO4J_URI": closed, "NEO4J_PASSWORD": "unused", **settings})
    started = time.monotonic()
    result = subprocess.run(
        ["sh", str(ENTRYPOINT)], cwd=wheel.outside, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 1
    assert message in result.stderr.strip().splitlines()[-1], result.stderr
    assert time.monotonic() - started < 90  # not the default 120 s wait: waiting would not help
