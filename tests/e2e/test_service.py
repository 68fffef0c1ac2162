"""`graphmem serve` as a user runs it: a real process on a free port, answering /healthz and GraphQL."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def service(neo4j_server) -> Iterator[str]:
    port = _free_port()
    env = dict(
        os.environ,
        NEO4J_URI=neo4j_server.uri,
        NEO4J_USER=neo4j_server.user,
        NEO4J_PASSWORD=neo4j_server.password,
        GRAPHMEM_EMBEDDER="hashing:384",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"graphmem serve exited: {proc.stdout.read() if proc.stdout else ''}")
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_healthz_answers_ok_with_the_neo4j_version(service: str) -> None:
    body = httpx.get(service + "/healthz").json()
    assert body["status"] == "ok"
    assert body["neo4j"]["version"].startswith("20")


def test_graphql_health_query(service: str) -> None:
    reply = httpx.post(service + "/graphql", json={"query": "{ health { status neo4jVersion } }"}).json()
    assert reply["data"]["health"]["status"] == "ok"
    assert reply["data"]["health"]["neo4jVersion"]
