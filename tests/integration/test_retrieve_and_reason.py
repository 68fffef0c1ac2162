"""`retrieve_and_reason` on the real Neo4j: the budget holds whoever writes the guidance, a bad budget is refused
by name, and extracted guidance states what is true now before what an earlier version said."""

from __future__ import annotations

import json

import pytest

from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from tests.support.fake_openai import FakeOpenAI, json_reply


def _office(graph: MemoryGraph, space: str) -> None:
    graph.ingest_documents(space, [
        {"id": f"{space}-a", "text": "The Acme office is located in Paris, on Rue de Rivoli.", "author": "ana",
         "event_at": "2024-01-10T09:00:00Z"},
        {"id": f"{space}-b", "text": "The Acme office moved to Lyon, near the Part-Dieu station.", "author": "bo",
         "event_at": "2024-06-01T09:00:00Z", "supersedes": [f"{space}-a"]},
    ])  # fmt: skip


def test_extracted_guidance_says_what_is_true_now_before_an_earlier_version(store, minilm, space) -> None:
    graph = MemoryGraph(store, minilm, Settings())
    _office(graph, space)
    reasoned = graph.retrieve_and_reason("Where is the Acme office?", space, token_budget=40)
    assert "Lyon" in reasoned.guidance and "Paris" not in reasoned.guidance
    assert reasoned.memory_tokens == minilm.count_tokens(reasoned.guidance) <= 40


@pytest.mark.parametrize("budget", [0, -5, 5_000])
def test_a_budget_out_of_range_is_refused_by_name(store, minilm, space, budget: int) -> None:
    graph = MemoryGraph(store, minilm, Settings())
    with pytest.raises(InvalidInput) as caught:
        graph.retrieve_and_reason("Where is the Acme office?", space, token_budget=budget)
    assert caught.value.field == "token_budget"


def test_an_llm_answer_over_the_budget_is_cut_to_the_budget(store, minilm, space) -> None:
    rambling = "The Acme office is in Lyon. " + " ".join(["It is a fine office with many rooms."] * 40)
    plan = {"tags": ["Acme office"], "next_subgoal": "find the office", "mode": "semantic"}

    def reply(body: dict) -> object:
        return json_reply({"guidance": rambling} if "Evidence (best first)" in json.dumps(body) else plan)

    _office(MemoryGraph(store, minilm, Settings()), space)
    with FakeOpenAI(reply) as server:  # type: ignore[arg-type]
        settings = Settings(GRAPHMEM_LLM_BASE_URL=server.base_url, GRAPHMEM_LLM_MODEL="fake-model")
        reasoned = MemoryGraph(store, minilm, settings).retrieve_and_reason(
            "Where is the Acme office?", space, token_budget=24
        )
    assert reasoned.used_llm and reasoned.guidance.startswith("The Acme office is in Lyon.")
    assert reasoned.memory_tokens == minilm.count_tokens(reasoned.guidance) <= 24
