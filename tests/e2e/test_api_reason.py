"""The `reason` query over HTTP against the real Neo4j: guidance within the token budget, the items it drew on
with their provenance, as of a date, extractive without an LLM and LLM-written with one (a local
OpenAI-compatible server), and every bad argument refused by name."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.support.api_graph import ApiClient, ApiKeys, error_codes, make_client
from tests.support.fake_openai import FakeOpenAI, Reply, json_reply

INGEST_DOCS = """mutation($input: IngestDocumentsInput!) { ingestDocuments(input: $input) {
  ids userErrors { field code message } } }"""
REASON = """query($s: String!, $q: String!, $budget: Int, $asOf: DateTime, $knownAt: DateTime, $first: Int,
                 $subgoal: String, $mode: RecallMode! = AUTO) {
  reason(space: $s, query: $q, tokenBudget: $budget, asOf: $asOf, knownAt: $knownAt, first: $first,
         subgoal: $subgoal, mode: $mode) {
    guidance usedLlm guidanceTokens evidenceTokens tokenBudget query asOf knownAt
    items { nodeId kind text eventAt author status validFrom validTo episodeId relation sourceIds
            evidence { nodeId text eventAt author episodeId }
            node { id ... on Episodic { author } } } } }"""

DOCS = [
    {"id": "office-v1", "text": "The Acme office is located in Paris, on Rue de Rivoli.", "author": "ana",
     "eventAt": "2024-01-10T09:00:00Z"},
    {"id": "office-v2", "text": "The Acme office moved to Lyon, near the Part-Dieu station.", "author": "bo",
     "eventAt": "2024-06-01T09:00:00Z", "supersedes": ["office-v1"]},
    {"id": "lunch", "text": "Team lunch is every Friday at Chez Marie. Bring a badge to enter the canteen.",
     "author": "ana", "eventAt": "2024-02-01T09:00:00Z"},
    {"id": "parking", "text": "Visitors park in the north garage; the gate code changes every month.",
     "author": "cy", "eventAt": "2024-03-05T09:00:00Z"},
]  # fmt: skip
QUESTION = "Where is the Acme office?"
# A cold first recall on a loaded shared machine can pass the default 30 s query timeout.
SLOW_MACHINE_TIMEOUT_S = 180


@pytest.fixture(scope="module")
def world(store, minilm, tmp_path_factory) -> dict[str, Any]:
    """One space of documents written through the API (the office moved from Paris to Lyon); keys."""
    space, other = f"test-{uuid.uuid4().hex[:12]}", f"test-{uuid.uuid4().hex[:12]}"
    run = uuid.uuid4().hex[:8]
    documents = [
        {**d, "id": f"{run}-{d['id']}", **({"supersedes": [f"{run}-{x}" for x in d["supersedes"]]}
                                          if "supersedes" in d else {})}
        for d in DOCS
    ]  # fmt: skip
    keys = ApiKeys()
    k = {"writer": keys.add("read,write", space), "reader": keys.add("read", space), "other": keys.add("read", other)}
    key_file = tmp_path_factory.mktemp("keys") / "keys.json"
    api = make_client(store, minilm, keys, key_file, GRAPHMEM_API_QUERY_TIMEOUT=SLOW_MACHINE_TIMEOUT_S)
    body = api.gql(INGEST_DOCS, {"input": {"space": space, "documents": documents}}, key=k["writer"])
    assert body["data"]["ingestDocuments"]["userErrors"] == [], body
    return {"api": api, "space": space, "keys": k, "key_file": key_file, "id": lambda name: f"{run}-{name}",
            "keyring": keys}  # fmt: skip


def reason(world: dict[str, Any], api: ApiClient | None = None, key: str | None = None, **variables: Any) -> Any:
    body = (api or world["api"]).gql(
        REASON, {"s": world["space"], "q": QUESTION, **variables}, key=key or world["keys"]["reader"]
    )
    return body


def cited(result: dict[str, Any]) -> set[str]:
    """Ids of every item and every evidence unit the guidance drew on."""
    return {i["nodeId"] for i in result["items"]} | {e["nodeId"] for i in result["items"] for e in i["evidence"]}


def test_reason_extracts_guidance_within_the_budget_with_its_provenance(world: dict[str, Any], minilm) -> None:
    body = reason(world, budget=40)
    assert "errors" not in body, body
    result = body["data"]["reason"]
    assert result["usedLlm"] is False and result["tokenBudget"] == 40
    assert "Lyon" in result["guidance"] and "[2024-06-01 · bo]" in result["guidance"]
    assert 0 < result["guidanceTokens"] == minilm.count_tokens(result["guidance"]) <= 40
    assert result["evidenceTokens"] > result["guidanceTokens"]  # compressed from a larger evidence
    assert world["id"]("office-v2") in cited(result)  # the sentence's document is named, with its provenance
    office = next(e for i in result["items"] for e in i["evidence"] if e["nodeId"] == world["id"]("office-v2"))
    assert office["author"] == "bo" and office["eventAt"].startswith("2024-06-01")
    for item in result["items"]:
        assert item["kind"] in {"semantic", "procedural", "episodic", "episode"} and item["evidence"]
        assert item["sourceIds"] == list(dict.fromkeys(e["episodeId"] for e in item["evidence"] if e["episodeId"]))
        assert item["node"] is None or item["node"]["id"]
    # the guidance's items are those of its sentences: nothing about parking was used for the office
    assert world["id"]("parking") not in cited(result)


def test_reason_as_of_a_date_answers_from_what_was_true_then(world: dict[str, Any]) -> None:
    body = reason(world, budget=40, asOf="2024-03-01T00:00:00Z", mode="EPISODIC")
    assert "errors" not in body, body
    result = body["data"]["reason"]
    assert "Paris" in result["guidance"] and "Lyon" not in result["guidance"]
    assert result["asOf"].startswith("2024-03-01")
    assert world["id"]("office-v1") in cited(result) and world["id"]("office-v2") not in cited(result)
    now = reason(world, budget=40, mode="EPISODIC")["data"]["reason"]
    assert "Lyon" in now["guidance"] and "Paris" not in now["guidance"]  # superseded: not current


@pytest.mark.parametrize("budget", [16, 17, 25, 60, 300, 4000])
def test_the_guidance_never_costs_more_than_its_token_budget(world: dict[str, Any], minilm, budget: int) -> None:
    body = reason(world, q="What should a visitor know about the office, lunch and parking?", budget=budget)
    assert "errors" not in body, body
    result = body["data"]["reason"]
    assert result["guidance"], "some guidance always fits: the best sentence is cut when none fits whole"
    assert result["guidanceTokens"] == minilm.count_tokens(result["guidance"]) <= budget
    assert result["items"]


def test_reason_without_a_budget_uses_the_configured_default(world: dict[str, Any]) -> None:
    result = reason(world)["data"]["reason"]
    assert result["tokenBudget"] == 300 and result["guidanceTokens"] <= 300


@pytest.mark.parametrize(
    ("variables", "field"),
    [
        ({"q": ""}, "query"),
        ({"q": "   "}, "query"),
        ({"budget": -5}, "tokenBudget"),
        ({"budget": 0}, "tokenBudget"),
        ({"budget": 15}, "tokenBudget"),
        ({"budget": 4001}, "tokenBudget"),
        ({"budget": 2_000_000_000}, "tokenBudget"),
        ({"first": 0}, "first"),
        ({"first": 100_000}, "first"),
        ({"knownAt": "2999-01-01T00:00:00Z"}, "knownAt"),
        ({"subgoal": "x" * 200_001}, "subgoal"),
    ],
)
def test_bad_arguments_are_refused_by_name(world: dict[str, Any], variables: dict[str, Any], field: str) -> None:
    response = world["api"].post(REASON, {"s": world["space"], "q": QUESTION, **variables}, key=world["keys"]["reader"])
    assert response.status_code < 500, response.text
    body = response.json()
    assert body.get("data") is None or body["data"].get("reason") is None
    error = body["errors"][0]
    assert error["extensions"]["code"] == "INVALID_INPUT", body
    assert error["extensions"]["field"] == field
    assert error["message"].startswith(f"{field}: ") and f"{field}: {field}" not in error["message"]


def test_reason_is_scoped_to_the_spaces_the_key_may_read(world: dict[str, Any]) -> None:
    body = reason(world, key=world["keys"]["other"])
    assert body["data"] is None and error_codes(body) == ["FORBIDDEN"]
    assert error_codes(world["api"].gql(REASON, {"s": world["space"], "q": QUESTION})) == ["UNAUTHENTICATED"]


def _scripted(guidance: str):
    """The LLM's replies: a plan for the planner's request, `guidance` for the reasoning request."""
    plan = {"tags": ["Acme office"], "next_subgoal": "find the office address", "mode": "semantic"}

    def reply(body: dict[str, Any]) -> Reply:
        asked = json.dumps(body["messages"])
        return json_reply({"guidance": guidance}) if "Evidence (best first)" in asked else json_reply(plan)

    return reply


def llm_api(world: dict[str, Any], store, minilm, server: FakeOpenAI, tmp_path: Path) -> ApiClient:
    return make_client(
        store, minilm, world["keyring"], tmp_path / "keys.json",
        GRAPHMEM_LLM_BASE_URL=server.base_url, GRAPHMEM_LLM_MODEL="fake-model", GRAPHMEM_LLM_MAX_RETRIES=0,
        GRAPHMEM_API_QUERY_TIMEOUT=SLOW_MACHINE_TIMEOUT_S,
    )  # fmt: skip


def test_reason_with_an_llm_returns_its_guidance_and_every_item_it_was_given(
    world: dict[str, Any], store, minilm, tmp_path: Path
) -> None:
    with FakeOpenAI(_scripted("The Acme office is in Lyon, near Part-Dieu (since 2024-06-01).")) as server:
        body = reason(world, llm_api(world, store, minilm, server, tmp_path), budget=40, mode="EPISODIC")
        asked = json.dumps(server.requests[-1]["messages"])
    assert "errors" not in body, body
    result = body["data"]["reason"]
    assert result["usedLlm"] is True
    assert result["guidance"] == "The Acme office is in Lyon, near Part-Dieu (since 2024-06-01)."
    assert result["guidanceTokens"] == minilm.count_tokens(result["guidance"]) <= 40
    assert "Part-Dieu" in asked and "at most 40 tokens" in asked  # the evidence and the budget reached the model
    assert world["id"]("office-v2") in cited(result)
    assert all(i["text"][:30] in asked for i in result["items"])  # the items are what the model was given


def test_an_llm_answer_over_the_budget_is_cut_to_fit(world: dict[str, Any], store, minilm, tmp_path: Path) -> None:
    rambling = "The Acme office is in Lyon. " + " ".join(["It is a fine office with many rooms."] * 40)
    with FakeOpenAI(_scripted(rambling)) as server:
        result = reason(world, llm_api(world, store, minilm, server, tmp_path), budget=24)["data"]["reason"]
    assert result["usedLlm"] is True and result["guidance"].startswith("The Acme office is in Lyon.")
    assert result["guidanceTokens"] == minilm.count_tokens(result["guidance"]) <= 24


def test_an_llm_failure_falls_back_to_extracted_guidance(world: dict[str, Any], store, minilm, tmp_path: Path) -> None:
    with FakeOpenAI([Reply(status=500)]) as server:
        result = reason(world, llm_api(world, store, minilm, server, tmp_path), budget=40)["data"]["reason"]
    assert result["usedLlm"] is False and "Lyon" in result["guidance"] and result["guidanceTokens"] <= 40
