"""A kept benchmark space is ranked again without ingest: graph ids map back to the dataset's keys."""

from __future__ import annotations

import pytest

from graphmem.bench.quality.datasets import Question, Scope, Session, Turn
from graphmem.bench.quality.graphmem_system import GraphmemSystem
from graphmem.bench.quality.system import Depth
from graphmem.config import Settings
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph

pytestmark = pytest.mark.integration


def _scope(prefix: str) -> Scope:
    def session(key: str, *texts: str) -> Session:
        turns = tuple(Turn(f"{key}:{i}", t, "user") for i, t in enumerate(texts))
        return Session(f"{prefix}{key}", "2024-05-01T10:00:00Z", turns)

    sessions = [
        session("bike", "I bought a blue Canyon gravel bike", "The gravel bike has wide tyres"),
        session("soup", "Lentil soup needs cumin", "Bread goes well with soup"),
    ]
    question = Question("q", "Which gravel bike did I buy?", "single", gold_sessions=(f"{prefix}bike",))
    return Scope("q", [question], sessions=sessions)


def test_a_kept_space_ranks_as_it_did_when_ingested(store, space):
    graph = MemoryGraph(store, HashingEmbedder(384), Settings(GRAPHMEM_DERIVE_CHAT_FACTS=False))
    scope = _scope("s-")
    first = GraphmemSystem(graph)
    first.ingest(space, scope)
    depth = Depth(units=5, sessions=2)
    before = first.rank(space, scope.questions[0], "hybrid", depth)

    again = GraphmemSystem(graph)
    assert again.attach(space, scope)
    after = again.rank(space, scope.questions[0], "hybrid", depth)
    assert after == before and after.sessions[0] == "s-bike" and after.units[0].startswith("bike:")
    assert not again.attach(f"{space}-never-ingested", scope)
    with pytest.raises(InvalidInput):  # the same space read as another selection's scope
        again.attach(space, _scope("other-"))
