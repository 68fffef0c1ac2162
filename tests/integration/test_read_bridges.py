"""Passage bridges on a tiny two-hop corpus in a real Neo4j: the passage a question passes through is found
only through the passage that names it."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.memory_graph import MemoryGraph

pytestmark = pytest.mark.integration

QUESTION = "Which river flows through the hometown of the architect of the Velmora Tower?"
SEED = (
    "Velmora Tower\nThe Velmora Tower is a skyscraper in Dunmere designed by Oskar Lindqvist. "
    "The Velmora Tower was completed in 1931 and has 41 floors."
)
BRIDGE = (
    "Oskar Lindqvist\nOskar Lindqvist was born in Harnsby, a small port on the Ember. "
    "Oskar Lindqvist trained as a ship engineer before he turned to buildings."
)
DISTRACTORS = [
    "Caltera Tower\nThe Caltera Tower is a skyscraper whose architect grew up beside the river Sorn. "
    "The Caltera Tower opened to visitors in 1950.",
    "Brightwater Tower\nThe architect of the Brightwater Tower was raised in a river town on the Maelle. "
    "The Brightwater Tower has a public garden on its roof.",
    "Harlow Spire\nHarlow Spire is a tower built by an architect from a hometown on the river Tessel. "
    "Harlow Spire was restored after a fire in 1988.",
    "Rivers of Dunmere\nThe river Aske flows through Dunmere, home of many towers and their architects. "
    "The Aske floods the lower town in spring.",
    "Tower architects\nMany tower architects chose their hometown river as the theme of their skyscrapers. "
    "Their drawings are kept in city archives.",
    "Old Mill Tower\nThe Old Mill Tower stands where two rivers meet; its architect's hometown is unknown. "
    "The Old Mill Tower once held a grain store.",
]
ON = {"read_bridge_weight": 0.5, "read_bridge_window": 30, "read_bridge_seeds": 2}


def documents(graph: MemoryGraph, space: str) -> dict[str, str]:
    texts = [SEED, BRIDGE, *DISTRACTORS]
    summary = graph.ingest_documents(space, [{"id": f"{space}-p{i}", "text": t} for i, t in enumerate(texts)])
    assert summary.failed == 0
    return {"seed": f"{space}-p0", "bridge": f"{space}-p1"}


def passages(graph: MemoryGraph, space: str, k: int) -> list[str]:
    """The passages of the ranked hits, in order (a fact stands for the document it rests on)."""
    hits = graph.recall(QUESTION, space, k=30).hits
    rows = graph.store.read("read/passage_of_units", space=space, ids=[h.id for h in hits])
    of = {r["id"]: r["document_id"] for r in rows}
    return list(dict.fromkeys(of[h.id] for h in hits if h.id in of))[:k]


def test_the_passage_named_by_the_top_passage_is_bridged_in(store, minilm, space):
    graph = MemoryGraph(store, minilm, Settings())
    ids = documents(graph, space)
    off = passages(graph, space, 3)
    assert ids["seed"] in off
    assert ids["bridge"] not in off  # the question alone does not reach it

    graph.settings = Settings().model_copy(update=ON)
    on = passages(graph, space, 3)
    assert ids["seed"] in on and ids["bridge"] in on
    hit = next(h for h in graph.recall(QUESTION, space, k=30).hits if h.id == ids["bridge"] or "bridge" in h.value)
    assert hit.value.get("bridge", 0) > 0


def test_dated_records_are_left_as_ranked(store, minilm, space):
    graph = MemoryGraph(store, minilm, Settings())
    texts = [SEED, BRIDGE, *DISTRACTORS]
    graph.ingest_documents(
        space, [{"id": f"{space}-d{i}", "text": t, "event_at": "2024-05-01T10:00:00Z"} for i, t in enumerate(texts)]
    )
    before = [h.id for h in graph.recall(QUESTION, space, k=10).hits]
    graph.settings = Settings().model_copy(update=ON)
    after = graph.recall(QUESTION, space, k=10)
    assert [h.id for h in after.hits] == before
    assert all("bridge" not in h.value and "passage" not in h.value for h in after.hits)
