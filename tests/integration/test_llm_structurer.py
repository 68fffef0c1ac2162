"""Episodes structured by `LLMStructurer` through a real local OpenAI-compatible server, into real Neo4j."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.llm import LLMClient
from graphmem.memory_graph import MemoryGraph
from graphmem.write.memory import Memory
from graphmem.write.structurers import LLMStructurer, make_structurer
from graphmem.write.structurers.prompts import INSIGHT_SYSTEM, STEPS_SYSTEM
from tests.support.fake_openai import FakeOpenAI, Reply, json_reply, malformed_reply, slow_reply

pytestmark = pytest.mark.integration


def trajectory(space: str) -> Memory:
    memory = Memory("order a birthday cake", space=space, started_at="2024-05-01T09:00:00Z")
    memory.append("search 'chocolate cake bakery'", "Sweet Crumbs bakery sells chocolate cakes for 35 euros.")
    memory.append("open 'Sweet Crumbs'", "Sweet Crumbs delivers on weekends.")
    memory.append("order the chocolate cake", "Order 1234 confirmed for Saturday delivery.")
    return memory.close(outcome=1.0)


def canned(body: dict[str, Any]) -> Reply:
    system = body["messages"][0]["content"]
    if system == STEPS_SYSTEM:
        return json_reply(
            {
                "steps": [
                    {
                        "index": 0,
                        "subgoal": "find a bakery",
                        "reward": 0.3,
                        "state": "bakery found",
                        "facts": [
                            {
                                "text": "Sweet Crumbs sells chocolate cakes for 35 euros.",
                                "tags": ["Sweet Crumbs", "chocolate cake", "35 euros"],
                            }
                        ],
                    },
                    {
                        "index": 1,
                        "subgoal": "find a bakery",
                        "reward": 0.5,
                        "state": "delivery checked",
                        "facts": [{"text": "Sweet Crumbs delivers on weekends.", "tags": ["Sweet Crumbs", "weekend"]}],
                    },
                    {
                        "index": 2,
                        "subgoal": "place an order",
                        "reward": 1.0,
                        "state": "ordered",
                        "facts": [{"text": "Order 1234 is due on Saturday.", "tags": ["order 1234", "Saturday"]}],
                    },
                ]
            },
            prompt_tokens=100,
            completion_tokens=50,
        )
    assert system == INSIGHT_SYSTEM
    return json_reply(
        {"goal": "buy a cake", "insight": "Check delivery days before ordering."},
        prompt_tokens=40,
        completion_tokens=10,
    )


def graph_for(store: Store, server: FakeOpenAI, timeout_s: float = 5.0) -> MemoryGraph:
    graph = MemoryGraph(store, HashingEmbedder(384), Settings(GRAPHMEM_STRUCTURER="rules"))
    graph.structurer = LLMStructurer(LLMClient(server.base_url, "fake-model", timeout_s=timeout_s, max_retries=1))
    return graph


def test_llm_structured_steps_give_facts_tags_subgoals_and_insights(store: Store, space: str) -> None:
    with FakeOpenAI(canned) as server:
        summary = graph_for(store, server).insert(trajectory(space))

    facts = store.run_read_text(
        "MATCH (f:Semantic)-[:EVIDENCED_BY]->(s:Episodic) WHERE f.space = $space "
        "RETURN f.text AS text, s.seq AS seq, [(t:Tag)-[:TAGS]->(f) | t.name] AS tags ORDER BY seq",
        space=space,
    )
    assert [f["text"] for f in facts] == [
        "Sweet Crumbs sells chocolate cakes for 35 euros.",
        "Sweet Crumbs delivers on weekends.",
        "Order 1234 is due on Saturday.",
    ]
    assert set(facts[0]["tags"]) == {"Sweet Crumbs", "chocolate cake", "35 euros"}
    tags = store.run_read_text(
        "MATCH (t:Tag {norm_name: 'sweet crumb'}) WHERE t.space = $space RETURN count(t) AS n", space=space
    )
    assert tags[0]["n"] == 1  # one tag shared by two facts
    procedures = store.run_read_text(
        "MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(p:Procedural) WHERE p.space = $space "
        "RETURN g.text AS subgoal, p.goal AS goal, p.text AS text, p.`return` AS ret ORDER BY subgoal",
        space=space,
    )
    assert [p["subgoal"] for p in procedures] == ["find a bakery", "place an order"]
    assert procedures[0]["text"] == "Check delivery days before ordering." and procedures[0]["goal"] == "buy a cake"
    assert procedures[0]["ret"] == pytest.approx(0.4)  # mean of the segment's rewards
    steps = store.run_read_text(
        "MATCH (s:Episodic) WHERE s.space = $space RETURN s.subgoal AS subgoal, s.reward AS reward ORDER BY s.seq",
        space=space,
    )
    assert steps[0] == {"subgoal": "find a bakery", "reward": 0.3}
    # 1 steps call + 2 insight calls, tokens as the server reported them
    assert summary.llm.calls == 3 and summary.llm.prompt_tokens == 180 and summary.llm.completion_tokens == 70
    assert summary.llm.failures == 0
    assert summary.llm_by_episode[summary.ids[0]].total_tokens == 250  # tokens per episode


@pytest.mark.parametrize("reply", [malformed_reply(), slow_reply(2.0)], ids=["malformed", "timeout"])
def test_a_failed_llm_keeps_the_steps_without_derived_knowledge(store: Store, space: str, reply: Reply) -> None:
    with FakeOpenAI([reply]) as server:
        summary = graph_for(store, server, timeout_s=0.5).insert(trajectory(space))

    nodes = store.run_read_text(
        "MATCH (n) WHERE n.space = $space RETURN labels(n)[0] AS label, count(*) AS n", space=space
    )
    assert {r["label"]: r["n"] for r in nodes} == {"Episode": 1, "Episodic": 3}  # nothing made up
    steps = store.run_read_text(
        "MATCH (s:Episodic) WHERE s.space = $space RETURN s.subgoal AS subgoal, s.text AS text", space=space
    )
    assert all(s["subgoal"] is None and s["text"].startswith("Action: ") for s in steps)
    assert summary.llm.failures == 1 and summary.llm.calls == 2  # one request, retried once


def test_the_llm_structurer_is_chosen_when_an_llm_is_configured() -> None:
    with FakeOpenAI() as server:
        settings = Settings(GRAPHMEM_LLM_BASE_URL=server.base_url, GRAPHMEM_LLM_MODEL="fake-model")
        assert make_structurer(settings).name == "llm"
        assert make_structurer(settings.model_copy(update={"structurer": "rules"})).name == "rules"
    assert make_structurer(Settings(GRAPHMEM_LLM_BASE_URL=None, GRAPHMEM_LLM_MODEL=None)).name == "rules"
