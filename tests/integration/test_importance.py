"""Importance, the value model's fifth factor, from real sources: independent evidence, recorded outcomes and the
caller's weight (graphmem/evolution/importance), in a real Neo4j."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from graphmem.write.memory import Memory

pytestmark = pytest.mark.integration

QUESTION = "Which garage is reserved for visitors on weekdays?"
# Bag-of-words twins: the same words but "north"/"south", so the dense and lexical legs tie on the question.
BACKED = "The north garage is reserved for visitors on weekdays."
LONE = "The south garage is reserved for visitors on weekdays."


@pytest.fixture
def graph(store: Store) -> MemoryGraph:
    return MemoryGraph(store, HashingEmbedder(384), Settings())


def fact_of(store: Store, space: str, text: str) -> dict:
    rows = store.run_read_text(
        "MATCH (f:Semantic) WHERE f.space = $space AND f.text CONTAINS $word AND f.status = 'active' "
        "RETURN f.id AS id, f.importance AS importance",
        space=space,
        word=text,
    )
    assert len(rows) == 1, rows
    return rows[0]


def procedure_of(store: Store, space: str) -> str:
    return str(
        store.run_read_text("MATCH (p:Procedural) WHERE p.space = $space RETURN p.id AS id", space=space)[0]["id"]
    )


def test_a_fact_three_documents_support_outranks_a_twin_supported_by_one(graph, store, space):
    day = "2024-03-04T09:00:00Z"
    graph.ingest_documents(
        space,
        [{"text": BACKED, "author": author, "event_at": day} for author in ("ana", "ben", "chloe")]
        + [{"text": LONE, "author": "dan", "event_at": day}],
        strict=True,
    )
    backed, lone = fact_of(store, space, "north"), fact_of(store, space, "south")
    assert (backed["importance"], lone["importance"]) == (3.0, 1.0)

    def ranked(value_weights: dict[str, float] | None = None) -> dict[str, object]:
        hits = graph.recall(QUESTION, space, mode="semantic", k=10, value_weights=value_weights).hits
        return {h.id: h for h in hits if h.kind == "semantic"}

    hits = ranked()
    order = list(hits)
    assert order.index(backed["id"]) < order.index(lone["id"])
    assert hits[backed["id"]].value["importance"] == pytest.approx(0.75)
    assert hits[lone["id"]].value["importance"] == pytest.approx(0.5)
    # Without the importance term the twins tie: importance alone decided the order.
    flat = ranked({"importance": 0.0})
    assert flat[backed["id"]].score == pytest.approx(flat[lone["id"]].score)


def test_consolidating_restatements_counts_each_source_once(graph, store, space):
    graph.ingest_documents(
        space,
        [
            {"text": "The Lyon office closes at 6 pm on Fridays.", "author": "ana", "event_at": "2024-01-02"},
            {"text": "The Lyon office closes at 6 pm on Fridays!", "author": "ben", "event_at": "2024-01-05"},
        ],
        strict=True,
    )
    report = graph.consolidate(space)
    assert report.merged_nodes == 1
    merged = fact_of(store, space, "Lyon office")
    assert merged["importance"] == 2.0


def test_recorded_outcomes_raise_a_procedures_importance(graph, store, space):
    graph.insert(Memory("g", space=space).append("open the door", "The door is open.").close(outcome=1.0))
    proc_id = procedure_of(store, space)
    before = store.run_read_text("MATCH (p:Procedural {id: $id}) RETURN p.importance AS i", id=proc_id)[0]["i"]

    outcome = graph.record_outcome(space, proc_id, 1.0)

    assert (before, outcome["importance"]) == (1.0, 2.0)
    routed = graph.route_subgoal("open the door", space)
    assert routed[0].id == proc_id and routed[0].value["importance"] == pytest.approx(2 / 3)


def test_concurrent_outcomes_lose_no_use_and_no_importance(graph, store, space):
    graph.insert(Memory("g", space=space).append("open the door", "The door is open.").close(outcome=0.0))
    proc_id = procedure_of(store, space)
    calls = 40
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda _: graph.record_outcome(space, proc_id, 1.0), range(calls)))
    row = store.run_read_text(
        "MATCH (p:Procedural {id: $id}) RETURN p.uses AS uses, p.importance AS importance, p.`return` AS ret",
        id=proc_id,
    )[0]
    assert row["uses"] == calls
    assert row["importance"] == 1.0 + calls
    assert row["ret"] == pytest.approx(calls / (calls + 1))  # creation return 0, then `calls` rewards of 1


def test_a_caller_weight_scales_importance(graph, store, space):
    graph.ingest_documents(space, [{"text": BACKED, "importance": 0.25}], strict=True)
    assert fact_of(store, space, "north")["importance"] == 0.25


@pytest.mark.parametrize("weight", [-0.1, 1.5, float("inf"), "high", True])
def test_a_caller_weight_outside_zero_to_one_is_refused_by_field(graph, store, space, weight):
    documents = [{"text": LONE}, {"text": BACKED, "importance": weight}]
    with pytest.raises(InvalidInput) as refused:
        graph.ingest_documents(space, documents, strict=True)
    assert refused.value.field == "documents[1].importance"
    summary = graph.ingest_documents(space, documents)
    assert [e.field for e in summary.errors] == ["documents[1].importance"]
    assert summary.failed == 1
