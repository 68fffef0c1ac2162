"""Validity at (asOf, knownAt) against a real Neo4j: what was believed then, future-dated changes, and the
cached validity proven equal to the records it caches."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.memory_graph import MemoryGraph
from graphmem.read.asof import CURRENT_STATUSES, validity_params
from graphmem.timeutil import FAR_FUTURE, utc_now

pytestmark = pytest.mark.integration


@pytest.fixture
def graph(store: Store) -> MemoryGraph:
    return MemoryGraph(store, HashingEmbedder(384), Settings())


def _ingest(graph: MemoryGraph, space: str, **doc: Any) -> str:
    summary = graph.ingest_documents(space, [doc], strict=True)
    [doc_id] = summary.ids
    assert doc_id is not None
    return doc_id


def _answers(graph: MemoryGraph, space: str, question: str, **options: Any) -> list[str]:
    result = graph.recall(question, space, related=False, **options)
    return [hit.text or "" for hit in result.hits]


def _listed(store: Store, space: str, label: str, as_of: datetime, known_at: datetime, known_now: bool) -> set[str]:
    statuses = CURRENT_STATUSES if as_of >= utc_now() - timedelta(seconds=5) else ("active", "superseded", "merged")
    rows = store.read(
        f"api/list_{label}",
        space=space,
        limit=1000,
        after_key=None,
        after_id=None,
        author=None,
        tag=None,
        tag_norm=None,
        kind=None,
        episode=None,
        **validity_params(as_of, known_at, known_now, statuses),
    )
    return {row["node"]["id"] for row in rows}


def _paris_then_lyon(graph: MemoryGraph, space: str) -> tuple[str, str, datetime]:
    paris = _ingest(graph, space, text="The Acme office is in Paris.", event_at="2024-01-10T00:00:00Z")
    time.sleep(0.05)
    t1 = utc_now()
    time.sleep(0.05)
    lyon = _ingest(graph, space, text="The Acme office has moved to Lyon.", event_at="2024-06-01T00:00:00Z")
    graph.supersede(space, lyon, paris, "2024-06-01T00:00:00Z", reason="office moved", by="ops")
    return paris, lyon, t1


def test_known_at_before_a_supersession_answers_what_was_believed_then(graph: MemoryGraph, space: str) -> None:
    _, _, t1 = _paris_then_lyon(graph, space)

    then = _answers(graph, space, "Where is the Acme office?", known_at=t1)
    now = _answers(graph, space, "Where is the Acme office?")

    assert then and all("Paris" in text for text in then), then
    assert now and "Lyon" in now[0] and not any("Paris" in text for text in now), now
    # as of March, as known today: Paris held then
    assert "Paris" in _answers(graph, space, "Where is the Acme office?", as_of="2024-03-01T00:00:00Z")[0]


def test_audit_queries_report_the_closing_and_the_successor(graph: MemoryGraph, store: Store, space: str) -> None:
    paris, lyon, t1 = _paris_then_lyon(graph, space)
    march = datetime(2024, 3, 1, tzinfo=UTC)
    july = datetime(2024, 7, 1, tzinfo=UTC)

    def facts(as_of: datetime, known_at: datetime) -> dict[str, datetime]:
        rows = store.read("audit/facts_as_of", space=space, as_of=as_of, known_at=known_at, tag=None)
        return {row["text"]: row["valid_to"] for row in rows}

    believed_in_july_then = facts(july, t1)
    assert any("Paris" in text for text in believed_in_july_then)
    known_now = facts(march, utc_now())
    [paris_end] = [end for text, end in known_now.items() if "Paris" in text]
    assert paris_end.to_native() == datetime(2024, 6, 1, tzinfo=UTC)
    assert not any("Paris" in text for text in facts(july, utc_now()))

    chain = {row["id"]: row for row in store.read("audit/version_chain", space=space, id=paris)}
    assert chain[paris]["superseded_by"] == lyon
    [paris_fact] = [
        row["id"]
        for row in store.run_read_text(
            "MATCH (f:Semantic {space: $space})-[:EVIDENCED_BY]->(:Episodic {id: $id}) RETURN f.id AS id",
            space=space,
            id=paris,
        )
    ]
    [fact_row] = store.read("audit/version_chain", space=space, id=paris_fact)
    assert fact_row["superseded_by"] == lyon  # closed through the evidence it rests on
    assert fact_row["superseded_at"].to_native() == datetime(2024, 6, 1, tzinfo=UTC)


def test_a_supersession_dated_in_the_future_leaves_the_old_version_current(graph: MemoryGraph, space: str) -> None:
    old = _ingest(graph, space, text="The Acme office is in Paris.", event_at="2024-01-10T00:00:00Z")
    new = _ingest(graph, space, text="The Acme office will move to Lyon.", event_at="2024-06-01T00:00:00Z")
    graph.supersede(space, new, old, "2031-01-01T00:00:00Z", reason="planned move", by="ops")

    by_default = _answers(graph, space, "Where is the Acme office?")
    as_of_now = _answers(graph, space, "Where is the Acme office?", as_of=utc_now())

    assert any("Paris" in text for text in by_default), by_default
    assert any("Paris" in text for text in as_of_now), as_of_now
    assert {v.id for v in graph.history(space, old).current} == {old, new}


def _history(graph: MemoryGraph, space: str) -> list[str]:
    """Documents, explicit and document supersessions (one in the future), facts resting on several."""
    a = _ingest(graph, space, text="Ana Costa leads the Payments team.", event_at="2024-01-01T00:00:00Z")
    b = _ingest(graph, space, text="Bo Li runs the Search team.", event_at="2024-02-01T00:00:00Z")
    c = _ingest(
        graph,
        space,
        text="Ines Dias now leads the Payments team.",
        event_at="2024-05-01T00:00:00Z",
        supersedes=[a],
    )
    d = _ingest(graph, space, text="Bo Li runs the Search team.", event_at="2024-03-01T00:00:00Z", id=f"{space}-d")
    e = _ingest(graph, space, text="Search moves to Kai Sato.", event_at="2024-06-01T00:00:00Z")
    graph.supersede(space, e, b, "2031-06-01T00:00:00Z", by="hr")
    graph.supersede(space, e, d, "2024-06-01T00:00:00Z", by="hr")
    return [a, b, c, d, e]


def test_the_cached_validity_equals_the_records(graph: MemoryGraph, store: Store, space: str) -> None:
    _history(graph, space)
    now = utc_now()
    for as_of in (
        datetime(2023, 12, 1, tzinfo=UTC),
        datetime(2024, 1, 15, tzinfo=UTC),
        datetime(2024, 5, 15, tzinfo=UTC),
        datetime(2024, 7, 1, tzinfo=UTC),
        now,
    ):
        for label in ("semantic", "episodic"):
            cached = _listed(store, space, label, as_of, now, known_now=True)
            recorded = _listed(store, space, label, as_of, now, known_now=False)
            assert cached == recorded, (label, as_of)

    def snapshot() -> dict[str, tuple[Any, Any]]:
        rows = store.run_read_text(
            "MATCH (n) WHERE n.space = $space AND (n:Semantic OR n:Episodic OR n:Procedural) "
            "RETURN n.id AS id, n.valid_to AS valid_to, n.status AS status",
            space=space,
        )
        return {r["id"]: (r["valid_to"], r["status"]) for r in rows}

    before = snapshot()
    store.write_transaction(
        lambda tx: store.run_in(tx, "write/revalidate", space=space, ids=sorted(before), far=FAR_FUTURE)
    )
    assert snapshot() == before
