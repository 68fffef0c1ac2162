"""A fresh database with only the schema installed: the audit queries and the service's reads plan without
"... does not exist" warnings (unknown label, relationship type or property), as an analyst's plain driver,
Neo4j Browser or neo4j-graphrag would log them. Runs its own embedded Neo4j: the shared one already holds
every name some earlier test wrote."""

from __future__ import annotations

import logging
import socket
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from neo4j import GraphDatabase

from graphmem.config import Settings
from graphmem.db import Store, install_schema
from graphmem.db.embedded import EmbeddedNeo4j
from graphmem.db.queries import CYPHER_DIR
from graphmem.embed.hashing import HashingEmbedder
from graphmem.memory_graph import MemoryGraph

pytestmark = pytest.mark.integration

PASSWORD = "graphmem-fresh-pw"
SINCE, UNTIL = datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)
AUDIT_PARAMS = {"since": SINCE, "until": UNTIL, "limit": 100, "id": "memo-1", "as_of": SINCE, "known_at": UNTIL,
                "tag": None}  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def fresh_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(
        GRAPHMEM_NEO4J_PORT=_free_port(),
        GRAPHMEM_NEO4J_DATA=tmp_path_factory.mktemp("fresh-neo4j"),
        NEO4J_PASSWORD=PASSWORD,
        GRAPHMEM_NEO4J_HEAP="512m",
        GRAPHMEM_NEO4J_PAGECACHE="128m",
        GRAPHMEM_NEO4J_START_TIMEOUT=600,  # a second JVM on a busy 2-core machine
    )
    server = EmbeddedNeo4j(settings)
    server.start()
    try:
        with Store(settings.embedded_uri, "neo4j", PASSWORD) as store:
            install_schema(store, 64)
        yield settings.embedded_uri
    finally:
        server.stop()


def _unknown_name_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The notifications a driver logged about names the database does not know (GQL status 01N50-01N52)."""
    messages = [r.getMessage() for r in caplog.records if r.name == "neo4j.notifications"]
    return [m for m in messages if "does not exist" in m or "UNRECOGNIZED" in m or "01N5" in m]


def test_audit_queries_plan_without_unknown_name_warnings(fresh_uri: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="neo4j.notifications")
    space = f"fresh-{uuid.uuid4().hex[:8]}"
    with GraphDatabase.driver(fresh_uri, auth=("neo4j", PASSWORD)) as driver:  # a plain driver, every notification
        for path in sorted((CYPHER_DIR / "audit").glob("*.cypher")):
            records, _, _ = driver.execute_query(path.read_text(encoding="utf-8"), {**AUDIT_PARAMS, "space": space})
            assert records == [], path.name
    assert _unknown_name_warnings(caplog) == []


def test_the_service_reads_plan_without_unknown_name_warnings(fresh_uri: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="neo4j.notifications")
    space = f"fresh-{uuid.uuid4().hex[:8]}"
    store = Store(fresh_uri, "neo4j", PASSWORD)
    store.driver.close()
    store.driver = GraphDatabase.driver(fresh_uri, auth=("neo4j", PASSWORD))  # without the Store's muting
    memory = MemoryGraph(store, HashingEmbedder(64))
    try:
        assert memory.recall("Where is the Acme office?", space).hits == []
        memory.route_subgoal("book a room", space)
        memory.tag_vote("Where is the Acme office?", space)
        assert memory.changes(space, SINCE, UNTIL) == []
    finally:
        store.close()
    assert _unknown_name_warnings(caplog) == []
