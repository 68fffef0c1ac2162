"""Faults and durability on a Neo4j of this test's own (it is killed on purpose):

- SIGKILL in the middle of a large batched ingest: after restart every batch is wholly present or wholly
  absent (each stored document has all its derived facts), and rerunning the ingest completes it with no
  duplicates;
- a clean stop and restart keeps every node, relationship, index and constraint (counts and checksums).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.config import Settings
from graphmem.db import Store, install_schema
from graphmem.db.embedded import EmbeddedNeo4j
from tests.support.figures import record_figures

PASSWORD = "graphmem-fault-pw"
DOCS = 400
BATCH = 20

INGEST_SCRIPT = textwrap.dedent(
    """
    import sys
    from graphmem.config import Settings
    from graphmem.embed.hashing import HashingEmbedder
    from graphmem.db import Store
    from graphmem.write.documents import ingest_documents

    uri, password, space, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    settings = Settings()
    docs = [
        {"id": f"{space}-d{i:05d}", "text": f"Ticket {i} was closed by Alice Smith on the Berlin team. "
                                   f"The Berlin office approved budget {i * 7} for Project Atlas.",
         "author": "alice", "event_at": "2024-03-05T10:00:00Z"}
        for i in range(n)
    ]
    with Store(uri, "neo4j", password) as store:
        summary = ingest_documents(store, HashingEmbedder(384), settings, space, docs)
    print("created", summary.created, "skipped", summary.skipped, "failed", summary.failed, flush=True)
    """
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def own_neo4j(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedNeo4j]:
    settings = Settings(
        GRAPHMEM_NEO4J_PORT=_free_port(),
        GRAPHMEM_NEO4J_DATA=tmp_path_factory.mktemp("fault-neo4j"),
        NEO4J_PASSWORD=PASSWORD,
        GRAPHMEM_NEO4J_HEAP="512m",
        GRAPHMEM_NEO4J_PAGECACHE="128m",
    )
    server = EmbeddedNeo4j(settings)
    server.start()
    with Store(settings.embedded_uri, "neo4j", PASSWORD) as store:
        install_schema(store, 384)
    try:
        yield server
    finally:
        server.stop()


def _store(server: EmbeddedNeo4j) -> Store:
    return Store(server.settings.embedded_uri, "neo4j", PASSWORD)


def _run_ingest(server: EmbeddedNeo4j, space: str, script: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))}
    env["GRAPHMEM_INGEST_BATCH_SIZE"] = str(BATCH)
    return subprocess.Popen(
        [sys.executable, str(script), server.settings.embedded_uri, PASSWORD, space, str(DOCS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )


def _documents(store: Store, space: str) -> list[dict]:
    return store.run_read_text(
        """
        MATCH (d:Episodic {space: $space, kind: 'document'})
        OPTIONAL MATCH (f:Semantic)-[:EVIDENCED_BY]->(d)
        RETURN d.id AS id, count(f) AS facts ORDER BY id
        """,
        space=space,
    )


def test_sigkill_mid_ingest_leaves_whole_batches_and_a_rerun_completes(
    own_neo4j: EmbeddedNeo4j, tmp_path: Path
) -> None:
    space = "fault-sigkill"
    script = tmp_path / "ingest.py"
    script.write_text(INGEST_SCRIPT)
    ingest = _run_ingest(own_neo4j, space, script)
    with _store(own_neo4j) as store:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if (
                store.run_read_text("MATCH (d:Episodic {space: $space}) RETURN count(d) AS n", space=space)[0]["n"]
                >= 3 * BATCH
            ):
                break
            assert ingest.poll() is None, "the ingest finished before it could be interrupted: raise DOCS"
            time.sleep(0.05)
    own_neo4j.kill()  # SIGKILL: no clean shutdown, mid-transaction
    ingest.wait(timeout=120)
    assert ingest.returncode != 0, "the ingest should have failed when its database died"

    own_neo4j.start()  # recovery from the transaction log
    with _store(own_neo4j) as store:
        stored = _documents(store, space)
        ids = [row["id"] for row in stored]
        assert 0 < len(ids) < DOCS
        # Batches go in input order, one transaction each: what survived is a prefix of whole batches.
        assert len(ids) % BATCH == 0
        assert ids == [f"{space}-d{i:05d}" for i in range(len(ids))]
        # Nothing half-written inside a batch: every stored document carries its derived facts.
        assert all(row["facts"] > 0 for row in stored)
        facts_before = {row["id"]: row["facts"] for row in stored}

    rerun = _run_ingest(own_neo4j, space, script)
    output, _ = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, output
    with _store(own_neo4j) as store:
        stored = _documents(store, space)
        assert [row["id"] for row in stored] == [f"{space}-d{i:05d}" for i in range(DOCS)]
        assert all(facts_before.get(row["id"], row["facts"]) == row["facts"] for row in stored)  # no duplicates
        dupes = store.run_read_text(
            """
            MATCH (n:Episodic {space: $space}) WITH n.content_hash AS h, count(*) AS c WHERE c > 1
            RETURN count(h) AS duplicated
            """,
            space=space,
        )
        assert dupes[0]["duplicated"] == 0
    record_figures("faults", {"faults_injected": 1, "kind": "SIGKILL of Neo4j mid-ingest", "documents": DOCS,
                              "batch": BATCH, "survived_after_kill": len(facts_before), "rerun_completed": DOCS,
                              "duplicates": 0, "half_written_batches": 0})  # fmt: skip


def _snapshot(store: Store, space: str) -> dict:
    rows = store.run_read_text(
        """
        MATCH (n) WHERE n.space = $space
        WITH n ORDER BY n.id
        WITH collect(n.id + ':' + coalesce(n.text, n.name, '')) AS items
        OPTIONAL MATCH (a {space: $space})-[r]->()
        RETURN size(items) AS nodes, count(r) AS rels, items
        """,
        space=space,
    )[0]
    import hashlib

    digest = hashlib.sha256("\n".join(rows["items"]).encode()).hexdigest()
    schema = sorted(
        (r["name"], r["type"], r["state"]) for r in store.run_read_text("SHOW INDEXES YIELD name, type, state")
    )
    constraints = sorted(r["name"] for r in store.run_read_text("SHOW CONSTRAINTS YIELD name"))
    return {
        "nodes": rows["nodes"],
        "rels": rows["rels"],
        "digest": digest,
        "indexes": schema,
        "constraints": constraints,
    }


def test_stop_and_restart_keeps_data_indexes_and_constraints(own_neo4j: EmbeddedNeo4j, tmp_path: Path) -> None:
    space = "durability"
    script = tmp_path / "ingest.py"
    script.write_text(INGEST_SCRIPT.replace("range(n)", "range(min(n, 200))"))
    proc = _run_ingest(own_neo4j, space, script)
    output, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, output
    with _store(own_neo4j) as store:
        before = _snapshot(store, space)
    assert before["nodes"] > 200 and before["rels"] > 200
    assert own_neo4j.stop()
    own_neo4j.start()
    with _store(own_neo4j) as store:
        assert _snapshot(store, space) == before
