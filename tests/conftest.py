"""Shared fixtures. Each test run gets one real Neo4j:

1. `NEO4J_TEST_URI` (+ `NEO4J_TEST_USER`, `NEO4J_TEST_PASSWORD`) when set;
2. else testcontainers' Neo4jContainer when a Docker engine answers;
3. else the embedded launcher on a free port with a throwaway data folder.

Tests isolate by `space` (a fresh random one per test), so they can share the server.
"""

from __future__ import annotations

import os
import socket
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from graphmem.config import Settings, get_settings
from graphmem.db import Store, install_schema
from graphmem.embed.hashing import HashingEmbedder

TEST_PASSWORD = "graphmem-test-pw"


@dataclass(frozen=True)
class Neo4jServer:
    uri: str
    user: str
    password: str
    source: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _docker_neo4j() -> Iterator[Neo4jServer] | None:
    try:
        from testcontainers.community.neo4j import Neo4jContainer  # type: ignore[import-not-found]
        from testcontainers.core.docker_client import DockerClient
    except ImportError:
        return None
    try:
        DockerClient().client.ping()
    except Exception:  # DockerException when no engine answers
        return None

    def run() -> Iterator[Neo4jServer]:
        from graphmem.config import DEFAULT_NEO4J_VERSION

        with Neo4jContainer(f"neo4j:{DEFAULT_NEO4J_VERSION}-community", password=TEST_PASSWORD) as container:
            yield Neo4jServer(container.get_connection_url(), "neo4j", TEST_PASSWORD, "testcontainers")

    return run()


@pytest.fixture(scope="session")
def neo4j_server() -> Iterator[Neo4jServer]:
    if os.environ.get("NEO4J_TEST_URI"):
        yield Neo4jServer(
            os.environ["NEO4J_TEST_URI"],
            os.environ.get("NEO4J_TEST_USER", "neo4j"),
            os.environ.get("NEO4J_TEST_PASSWORD", TEST_PASSWORD),
            "NEO4J_TEST_URI",
        )
        return
    docker = _docker_neo4j()
    if docker is not None:
        yield from docker
        return
    from graphmem.db.embedded import EmbeddedNeo4j

    data = Path(tempfile.mkdtemp(prefix="graphmem-test-neo4j-"))
    settings = Settings(
        GRAPHMEM_NEO4J_PORT=_free_port(),
        GRAPHMEM_NEO4J_DATA=data,
        NEO4J_PASSWORD=TEST_PASSWORD,
        GRAPHMEM_NEO4J_HEAP="1g",
        GRAPHMEM_NEO4J_PAGECACHE="256m",
    )
    embedded = EmbeddedNeo4j(settings)
    embedded.start()
    try:
        yield Neo4jServer(settings.embedded_uri, "neo4j", TEST_PASSWORD, "embedded")
    finally:
        embedded.stop()


@pytest.fixture(scope="session")
def hashing_embedder() -> HashingEmbedder:
    return HashingEmbedder(64)


@pytest.fixture(scope="session")
def minilm():
    """The real default embedder (all-MiniLM-L6-v2, offline)."""
    from graphmem.embed.sentence_transformers import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def store(neo4j_server: Neo4jServer, minilm) -> Iterator[Store]:
    """A Store on the test server with graphmem's schema installed (384-d, the default embedder)."""
    with Store(neo4j_server.uri, neo4j_server.user, neo4j_server.password) as store:
        install_schema(store, minilm.dimensions)
        yield store


@pytest.fixture
def space() -> str:
    """A fresh space per test: tests never see each other's data."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def cli_env(neo4j_server: Neo4jServer, store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """For commands that read their settings from the environment (the CLI): point them at the test server."""
    monkeypatch.setenv("NEO4J_URI", neo4j_server.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_server.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_server.password)
    get_settings.cache_clear()
    yield store
    get_settings.cache_clear()
