"""Neo4j's own tools on graphmem's graph — real Neo4j: `docs/audit.md`'s neo4j-graphrag example, run as written."""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path
from typing import Any

import pytest

from graphmem.db import Store, install_schema
from graphmem.db.schema import declared_vector_filters
from graphmem.model import EMBEDDED_LABELS
from tests.support.graph_builder import GraphBuilder, at

pytestmark = pytest.mark.integration
neo4j_graphrag = pytest.importorskip("neo4j_graphrag")

AUDIT_DOC = Path(__file__).resolve().parents[2] / "docs" / "audit.md"


def _doc_example() -> str:
    """The one Python block of docs/audit.md."""
    [block] = re.findall(r"```python\n(.*?)```", AUDIT_DOC.read_text(encoding="utf-8"), re.S)
    return block


def _operators(plan: Any) -> list[str]:
    ops = [plan["operatorType"].split("@")[0]]
    for child in plan.get("children", []):
        ops += _operators(child)
    return ops


class RecordingDriver:
    """The driver, with every query a retriever runs kept (to EXPLAIN it afterwards)."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.queries: list[tuple[str, dict[str, Any]]] = []

    def execute_query(self, query: str, parameters: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        self.queries.append((query, dict(parameters or {})))
        return self.driver.execute_query(query, parameters, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.driver, name)


def test_the_audit_docs_neo4j_graphrag_example_keeps_to_one_space_and_current_versions_inside_the_index(
    neo4j_server, store: Store, minilm, space: str, caplog
) -> None:
    mine, theirs = GraphBuilder(store, minilm, space), GraphBuilder(store, minilm, f"{space}-other")
    old = mine.semantic("The travel budget is 5,000 EUR per trip", valid_to=at("2024-05-02"), status="superseded")
    current = mine.semantic("The travel budget is 8,000 EUR per trip", valid_from=at("2024-05-02"))
    unrelated = mine.semantic("The cafeteria opens at eight")
    other = theirs.semantic("The travel budget is 8,000 EUR per trip")
    time.sleep(1.5)  # vector indexes are eventually consistent
    scope: dict[str, Any] = {"URI": neo4j_server.uri, "AUTH": (neo4j_server.user, neo4j_server.password)}
    scope["SPACE"] = space
    caplog.set_level(logging.DEBUG, logger="neo4j_graphrag")
    try:
        exec(compile(_doc_example(), str(AUDIT_DOC), "exec"), scope)
        vector_ids = [eval(item.content)["id"] for item in scope["vector_hits"].items]
        hybrid_ids = [item.content.split("id='")[1].split("'")[0] for item in scope["hybrid_hits"].items]
        assert vector_ids[0] == current and old not in vector_ids and other not in vector_ids
        assert set(vector_ids) <= {current, unrelated}
        assert hybrid_ids[0] == current and set(hybrid_ids) <= {current, unrelated}
        # the filters ran inside the vector index: no fallback, and the server planned an index search
        assert not [r for r in caplog.records if "falling back" in r.getMessage()]
        facts = scope["facts"]
        facts.driver = recording = RecordingDriver(facts.driver)
        facts.search(query_text="travel budget", top_k=3, filters=scope["current"])
        [(query, params)] = [(q, p) for q, p in recording.queries if "VECTOR INDEX" in q or "vector" in q.lower()]
        assert "SEARCH node IN (VECTOR INDEX" in query and "WHERE" in query, query
        _, summary, _ = store.driver.execute_query("EXPLAIN " + query, params)
        ops = _operators(summary.plan)
        assert "NodeVectorIndexSearch" in ops and not {"NodeByLabelScan", "AllNodesScan"} & set(ops), ops
        # a question in Lucene syntax is plain text on the hybrid path
        hybrid = scope["hybrid"]
        for nasty in ("2014 S/S", '"AND (travel', "budget~ title: [a TO"):
            hybrid.search(
                query_text=scope["lucene_query"](nasty),
                query_vector=scope["embedder"].embed_query(nasty),
                top_k=20,
                query_params={"space": space, "now": scope["now"], "k": 3},
            )
    finally:
        if "driver" in scope:
            scope["driver"].close()


def test_install_rebuilds_vector_indexes_made_without_the_filter_properties(store: Store, minilm, space: str) -> None:
    # A database whose vector indexes were made by an older schema (or by another tool) without in-index
    # filters: `SEARCH ... WHERE n.space = ...` cannot run inside them, so the next install rebuilds them.
    vector = minilm.embed(["The Lyon office closes on Fridays"])[0]
    store.run_write_text(
        "CREATE (:Tag {id: $id, space: $space, name: 'Lyon office', norm_name: 'lyon office', embedding: $vector})",
        id=space + "-t",
        space=space,
        vector=vector,
    )
    try:
        for label in EMBEDDED_LABELS:
            name = f"{label.lower()}_embedding"
            store.run_write_text(f"DROP INDEX {name} IF EXISTS")
            store.run_write_text(
                f"CREATE VECTOR INDEX {name} FOR (n:{label}) ON n.embedding OPTIONS {{indexConfig: "
                f"{{`vector.dimensions`: {minilm.dimensions}, `vector.quantization.enabled`: false}}}}"
            )
        store.run_read_text("CALL db.awaitIndexes(300)")
        report = install_schema(store, minilm.dimensions)
        assert sorted(report.rebuilt) == sorted(f"{label.lower()}_embedding" for label in EMBEDDED_LABELS)
        assert report.vector_filters == declared_vector_filters()
        assert report.vector_filters["Semantic"] == ["space", "status", "valid_from", "valid_to"]
        assert report.vector_filters_in_index
        assert install_schema(store, minilm.dimensions).rebuilt == []  # and stays so
        rows = store.run_read_text(
            "CYPHER 25 MATCH (t:Tag) SEARCH t IN (VECTOR INDEX tag_embedding FOR $vector WHERE t.space = $space "
            "LIMIT 1) SCORE AS score RETURN t.id AS id",
            vector=vector,
            space=space,
        )
        assert [r["id"] for r in rows] == [space + "-t"]  # rebuilt from the stored embeddings
    finally:
        install_schema(store, minilm.dimensions)
        store.run_write_text("MATCH (t:Tag {id: $id}) DELETE t", id=space + "-t")
