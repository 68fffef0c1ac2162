"""Consolidation with the LLM classifier, against a local OpenAI-compatible server over real HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.evolution.consolidate import consolidate
from graphmem.llm import LLMClient
from graphmem.pairs.llm_classifier import LLMClassifier
from tests.integration.test_evolution_consolidate import build_fixture, snapshot
from tests.support.evolution_fixtures import GraphBuilder
from tests.support.fake_openai import FakeOpenAI, Reply, json_reply

pytestmark = pytest.mark.integration


def judge(body: dict[str, Any]) -> Reply:
    """A scripted model: hotline numbers conflict, standup wordings restate, everything else is unrelated."""
    prompt = body["messages"][-1]["content"]
    if prompt.count("hotline") == 2:
        return json_reply({"label": "conflict", "same_subject": True, "same_value": False, "reason": "new number"})
    if prompt.count("standup") == 2:
        return json_reply({"label": "restatement", "same_subject": True, "same_value": True, "reason": "reworded"})
    return json_reply({"label": "unrelated", "same_subject": False, "same_value": False, "reason": "different"})


def test_llm_classifier_drives_consolidation(store: Store, space: str, minilm) -> None:
    graph = GraphBuilder(store, space, minilm)
    build_fixture(graph)
    with FakeOpenAI(judge) as server:
        settings = Settings(GRAPHMEM_LLM_BASE_URL=server.base_url, GRAPHMEM_LLM_MODEL="fake-model")
        report = consolidate(store, space, settings)  # auto: an LLM is configured, so it classifies

    assert report.classifier == "llm"
    assert (report.superseded, report.merged_nodes, report.merged) == (1, 1, 2)
    assert report.llm_calls == report.pairs_seen == len(server.requests)
    assert (report.llm_prompt_tokens, report.llm_completion_tokens) == (11 * report.llm_calls, 7 * report.llm_calls)
    first = server.requests[0]
    assert first["response_format"]["type"] == "json_schema"
    assert set(first["response_format"]["json_schema"]["schema"]["properties"]) >= {
        "label",
        "same_subject",
        "same_value",
    }
    [edge] = store.run_read_text(
        "MATCH (n:Semantic {space: $space})-[r:SUPERSEDES]->(o) RETURN n.id AS new, o.id AS old, r.reason AS reason, "
        "r.by AS by",
        space=space,
    )
    assert (edge["new"], edge["old"], edge["reason"], edge["by"]) == (
        graph.qualify("c2"),
        graph.qualify("c1"),
        "new number",
        "consolidation:llm",
    )


def test_answers_whose_flags_contradict_the_label_change_nothing(store: Store, space: str, minilm) -> None:
    graph = GraphBuilder(store, space, minilm)
    build_fixture(graph)
    before = snapshot(store, space)
    contradictory = json_reply({"label": "conflict", "same_subject": True, "same_value": True, "reason": "?"})
    with FakeOpenAI([contradictory]) as server:
        classifier = LLMClassifier(LLMClient(server.base_url, "fake-model", max_retries=1))
        report = consolidate(store, space, Settings(), classifier)

    assert report.conflicts == 0 and report.superseded == 0 and report.merged_nodes == 0
    assert report.llm_failures == report.pairs_seen > 0
    assert report.llm_calls == 2 * report.pairs_seen  # each pair asked twice (one retry), then left alone
    assert snapshot(store, space) == before
