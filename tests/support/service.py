"""Running graphmem as users do, for end-to-end tests: `graphmem serve` as its own process, or an app on a
uvicorn thread — each on a free loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from starlette.applications import Starlette


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve_process(neo4j_server, **env: str) -> Iterator[str]:
    """`python -m graphmem.cli serve` against the test Neo4j; yields its base URL once /healthz answers.

    Its output goes to a file, never an unread pipe: a full pipe would block the service mid-request."""
    port = free_port()
    full_env = dict(
        os.environ,
        NEO4J_URI=neo4j_server.uri,
        NEO4J_USER=neo4j_server.user,
        NEO4J_PASSWORD=neo4j_server.password,
        GRAPHMEM_EMBEDDER="hashing:384",
        **env,
    )
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp, (Path(tmp) / "serve.log").open("w+") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "graphmem.cli", "serve", "--port", str(port)],
            env=full_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise RuntimeError(f"graphmem serve exited: {Path(log.name).read_text()[-3000:]}")
                try:
                    httpx.get(base + "/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.3)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=30)


@contextmanager
def serve_thread(app: Starlette) -> Iterator[str]:
    """The app on a uvicorn thread (no lifespan: it must not close a store the test session shares)."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
