"""Numbers the question names, through the real write and read paths: a ward roster whose wards differ only in
the number of their names, which the embedding hardly tells apart."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.memory_graph import MemoryGraph

pytestmark = pytest.mark.integration

ROSTER = [
    ("4c-hours", "visiting hours on ward-4c are 11:00-19:00, as confirmed by h.tavita.", "2025-01-06"),
    ("7b-hours", "ward-7b // visiting 14:00-20:00 wef 08/09/24 // l.mcintyre-vaz", "2024-09-08"),
    ("3a-hours", "visiting hours for ward-3a have been set to 15:00-20:00 by the bed meeting.", "2024-02-05"),
    ("7b-beds", "ward-7b particulars\nbeds: 22\nupdated 2024-11-19 by d.esquivel-park", "2024-11-19"),
    ("4c-beds", "the bed count on ward-4c is 14, as confirmed by j.achterberg-ross.", "2024-03-24"),
]


@pytest.fixture
def roster(store, minilm, space) -> tuple[MemoryGraph, dict[str, str]]:
    graph = MemoryGraph(store, minilm, Settings())
    docs = [{"id": f"{space}-{n}", "text": t, "author": "rota-office", "event_at": d} for n, t, d in ROSTER]
    summary = graph.ingest_documents(space, docs, strict=True)
    return graph, {n: stored for (n, _, _), stored in zip(ROSTER, summary.ids, strict=True)}


def top_document(graph: MemoryGraph, space: str, question: str, recipe: str) -> str:
    """The document the first hit rests on (a fact hit stands for its document)."""
    top = graph.recall(question, space, k=5, recipe=recipe).hits[0]
    if top.kind == "episodic":
        return top.id
    return graph.store.read("bench/unit_evidence", space=space, ids=[top.id])[0]["unit_id"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [("remind me of the visiting hours for ward-7b.", "7b-hours"), ("what is the bed count on ward-7b?", "7b-beds")],
)
def test_the_ward_the_question_names_comes_first(roster, space, question, answer):
    graph, ids = roster
    assert top_document(graph, space, question, "hybrid") == ids[answer]
    assert top_document(graph, space, question, "hybrid-no:numbers") != ids[answer]  # what the stage mends
    result = graph.recall(question, space, k=5)
    assert "stage:numbers" in result.hits[0].signals and result.hits[0].value["numbers"] > 0
