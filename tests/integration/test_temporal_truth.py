"""Temporal truth, scenarios 1 and 2 of issue #24, on a real Neo4j through the Python API.

1. Paris (2024-01-10) -> note t1 -> Lyon (2024-06-01) superseding Paris at 2024-06-01: what the memory held at
   t1 (Paris, open-ended) stays answerable; now it answers Lyon; the audit queries show the closing date.
2. A supersession dated 2031-01-01 leaves the old version current today, for `asOf = None` and `asOf = now`.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.api.listing import list_page
from graphmem.api.scope import ReadScope
from graphmem.config import Settings
from graphmem.ids import content_id
from graphmem.memory_graph import MemoryGraph
from graphmem.timeutil import utc_now
from graphmem.write.structurers.rules import facts_from_text

pytestmark = pytest.mark.integration

PARIS = "The Acme office is in Paris."
LYON = "The Acme office has moved to Lyon."
QUESTION = "Where is the Acme office?"
MOVED = datetime(2024, 6, 1, tzinfo=UTC)
FUTURE = datetime(2031, 1, 1, tzinfo=UTC)
FAR_FUTURE = datetime(9999, 12, 31, tzinfo=UTC)


@pytest.fixture
def graph(store, minilm) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings())


def _native(value: Any) -> Any:
    return value.to_native() if hasattr(value, "to_native") else value


def _paris_then_lyon(graph: MemoryGraph, space: str, at: datetime) -> tuple[str, str, datetime]:
    """Ingest Paris, note t1, ingest Lyon and supersede Paris with it at `at`; returns (paris, lyon, t1)."""
    paris, lyon = f"{space}-paris", f"{space}-lyon"
    graph.ingest_documents(space, [{"id": paris, "text": PARIS, "event_at": "2024-01-10T09:00:00Z", "author": "ana"}])
    time.sleep(0.01)
    t1 = utc_now()
    time.sleep(0.01)
    graph.ingest_documents(space, [{"id": lyon, "text": LYON, "event_at": "2024-06-01T09:00:00Z", "author": "ana"}])
    assert graph.supersede(space, lyon, paris, at, reason="moved", by="ana") == 1
    return paris, lyon, t1


def _facts_of(graph: MemoryGraph, space: str, doc_id: str, text: str) -> list[str]:
    """Ids of the facts a document derives (one per tagged sentence, evidenced by the document)."""
    drafts = facts_from_text(text, max_facts=graph.settings.max_facts_per_document, titles=True)
    return [content_id("fact", space, doc_id, k, d.text) for k, d in enumerate(drafts)]


def _answers(graph: MemoryGraph, space: str, **when: Any) -> str:
    """The texts of recall's hits for the question, joined."""
    return " | ".join(h.text for h in graph.recall(QUESTION, space, **when).hits)


def _listed(graph: MemoryGraph, label: str, space: str, as_of: Any = None, known_at: Any = None) -> set[str]:
    scope = ReadScope.resolve(space, as_of, known_at)
    episodic = {"kind": None, "author": None, "episode": None}
    filters = episodic if label == "Episodic" else {"author": None, "tag": None, "tag_norm": None}
    page = asyncio.run(list_page(graph.store, label, scope, 100, None, filters))
    return {edge.node.node_id for edge in page.edges}


def test_recall_known_before_a_supersession_answers_what_was_believed_then(graph, space):
    _, _, t1 = _paris_then_lyon(graph, space, MOVED)

    believed = graph.recall(QUESTION, space, known_at=t1)
    now = graph.recall(QUESTION, space)

    assert believed.hits and "Paris" in believed.hits[0].text  # at t1 the memory held Paris, open-ended
    assert not any("Lyon" in h.text for h in believed.hits)  # Lyon was not recorded yet
    assert now.hits and "Lyon" in now.hits[0].text
    assert not any("Paris" in h.text for h in now.hits)  # the superseded version never answers today


def test_facts_as_of_shows_the_closing_date_and_what_was_believed_at_t1(graph, space):
    paris, lyon, t1 = _paris_then_lyon(graph, space, MOVED)
    [paris_fact] = _facts_of(graph, space, paris, PARIS)
    [lyon_fact] = _facts_of(graph, space, lyon, LYON)

    def facts_as_of(as_of: datetime, known_at: datetime) -> dict[str, Any]:
        rows = graph.store.read("audit/facts_as_of", space=space, as_of=as_of, known_at=known_at, tag=None)
        return {r["id"]: _native(r["valid_to"]) for r in rows}

    march, july = datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 7, 1, tzinfo=UTC)
    assert facts_as_of(march, utc_now()) == {paris_fact: MOVED}  # closed by the supersession, as known now
    assert facts_as_of(july, utc_now()) == {lyon_fact: FAR_FUTURE}
    assert facts_as_of(july, t1) == {paris_fact: FAR_FUTURE}  # at t1 nothing had closed Paris yet
    assert _listed(graph, "Semantic", space, as_of=july, known_at=t1) == {paris_fact}
    assert _listed(graph, "Episodic", space, as_of=july, known_at=t1) == {paris}


def test_version_chain_shows_the_successor_and_the_closing_date(graph, space):
    paris, lyon, _ = _paris_then_lyon(graph, space, MOVED)
    [paris_fact] = _facts_of(graph, space, paris, PARIS)

    chain = {r["id"]: r for r in graph.store.read("audit/version_chain", space=space, id=paris)}
    assert set(chain) == {paris, lyon}
    assert chain[paris]["superseded_by"] == lyon
    assert _native(chain[paris]["superseded_at"]) == MOVED
    assert (_native(chain[paris]["valid_to"]), chain[paris]["status"]) == (MOVED, "superseded")
    assert (_native(chain[lyon]["valid_to"]), chain[lyon]["status"]) == (FAR_FUTURE, "active")
    # The fact derived from Paris rests on Paris alone, so it ended when Paris did.
    [fact_row] = graph.store.read("audit/version_chain", space=space, id=paris_fact)
    assert (_native(fact_row["valid_to"]), fact_row["status"]) == (MOVED, "superseded")


def test_a_supersession_dated_in_2031_leaves_the_old_version_current_for_every_reading_of_now(graph, space):
    paris, lyon, _ = _paris_then_lyon(graph, space, FUTURE)
    [paris_fact] = _facts_of(graph, space, paris, PARIS)

    now = utc_now()
    for as_of in (None, now):
        assert _listed(graph, "Episodic", space, as_of=as_of) == {paris, lyon}, as_of
        assert paris_fact in _listed(graph, "Semantic", space, as_of=as_of), as_of
        assert "Paris" in _answers(graph, space, as_of=as_of), as_of
    [old] = [v for v in graph.history(space, paris).versions if v.id == paris]
    assert (old.valid_to, old.status) == (FUTURE, "superseded")  # closed from 2031, so current until then
