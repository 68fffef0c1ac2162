"""GraphQL reads over HTTP against the real Neo4j: listings, nested edges, node(id), as-of, cursors."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiClient, ApiKeys, SeededGraph, error_codes, make_client, seed_graph
from tests.support.evolution_fixtures import GraphBuilder, day

FACTS = """
query Facts($space: String!, $asOf: DateTime, $first: Int, $after: String, $tag: String) {
  semantics(space: $space, asOf: $asOf, first: $first, after: $after, tag: $tag) {
    pageInfo { hasNextPage endCursor }
    edges { cursor node { id nodeId text status validFrom validTo
      tags { name } evidence { text episode { goal } }
      supersedes { at kind reason by node { text } } supersededBy { node { text } } } }
  }
}
"""


@pytest.fixture(scope="module")
def embedder() -> HashingEmbedder:
    return HashingEmbedder(384)


@pytest.fixture
def keys(space: str) -> ApiKeys:
    return ApiKeys()


@pytest.fixture
def graph(store, space: str, embedder: HashingEmbedder) -> SeededGraph:
    return seed_graph(store, space, embedder)


@pytest.fixture
def reader(keys: ApiKeys, space: str) -> str:
    return keys.add("read", space)


@pytest.fixture
def api(store, embedder, keys: ApiKeys, reader: str, tmp_path: Path) -> ApiClient:
    return make_client(store, embedder, keys, tmp_path / "keys.json")


def texts(body: dict) -> list[str]:
    return [edge["node"]["text"] for edge in body["data"]["semantics"]["edges"]]


def test_current_facts_with_nested_tags_evidence_and_lineage(api: ApiClient, graph: SeededGraph, reader: str) -> None:
    body = api.gql(FACTS, {"space": graph.space}, key=reader)
    assert "errors" not in body, body
    edges = body["data"]["semantics"]["edges"]
    by_text = {e["node"]["text"]: e["node"] for e in edges}
    assert set(by_text) == {"The office is in Lyon", "Lunch is at Chez Marie"}  # the Paris fact is superseded
    lyon = by_text["The office is in Lyon"]
    assert [t["name"] for t in lyon["tags"]] == ["office"]
    assert lyon["evidence"] == [{"text": "We moved the office to Lyon.", "episode": {"goal": "plan the offsite"}}]
    assert lyon["supersedes"] == [
        {"at": "2024-06-01T00:00:00+00:00", "kind": "explicit", "reason": "office moved", "by": "ana",
         "node": {"text": "The office is in Paris"}}
    ]  # fmt: skip
    assert lyon["validTo"] is None and lyon["status"] == "ACTIVE"


def test_as_of_returns_the_version_valid_then_and_nested_fields_inherit_it(
    api: ApiClient, graph: SeededGraph, reader: str
) -> None:
    body = api.gql(FACTS, {"space": graph.space, "asOf": "2024-03-01T00:00:00Z"}, key=reader)
    assert set(texts(body)) == {"The office is in Paris", "Lunch is at Chez Marie"}
    paris = next(e["node"] for e in body["data"]["semantics"]["edges"] if "Paris" in e["node"]["text"])
    assert paris["status"] == "SUPERSEDED" and paris["validTo"] == "2024-06-01T00:00:00+00:00"
    assert paris["supersededBy"] == []  # as of March the supersession (dated June) had not happened
    later = api.gql(FACTS, {"space": graph.space, "asOf": "2024-07-01T00:00:00Z", "tag": "paris"}, key=reader)
    assert later["data"]["semantics"]["edges"] == []  # the Paris fact is no longer valid then
    node = api.gql(
        "query($id: ID!, $asOf: DateTime) { node(id: $id, asOf: $asOf) { ... on Semantic { supersededBy { at } } } }",
        {"id": paris["id"], "asOf": "2024-07-01T00:00:00Z"},
        key=reader,
    )
    assert node["data"]["node"]["supersededBy"] == [{"at": "2024-06-01T00:00:00+00:00"}]
    tag_query = """query($space: String!, $asOf: DateTime) {
      tags(space: $space, asOf: $asOf, prefix: "off") { edges { node { name facts { text } } } } }"""
    before = api.gql(tag_query, {"space": graph.space, "asOf": "2024-03-01T00:00:00Z"}, key=reader)
    now = api.gql(tag_query, {"space": graph.space}, key=reader)
    assert before["data"]["tags"]["edges"][0]["node"]["facts"] == [{"text": "The office is in Paris"}]
    assert now["data"]["tags"]["edges"][0]["node"]["facts"] == [{"text": "The office is in Lyon"}]


def test_tag_filter_and_keyset_pagination_is_stable_for_a_fixed_as_of(
    api: ApiClient, graph: SeededGraph, reader: str, store, embedder
) -> None:
    assert texts(api.gql(FACTS, {"space": graph.space, "tag": "office"}, key=reader)) == ["The office is in Lyon"]
    variables = {"space": graph.space, "asOf": "2025-01-01T00:00:00Z", "first": 1}
    first = api.gql(FACTS, variables, key=reader)["data"]["semantics"]
    assert first["pageInfo"]["hasNextPage"] is True
    # a fact written between two page requests sorts before the cursor: it must not shift or repeat a page
    GraphBuilder(store, graph.space, embedder).semantic("f_late", "A late fact", valid_from=day("2024-12-01"))
    second = api.gql(FACTS, {**variables, "after": first["pageInfo"]["endCursor"]}, key=reader)["data"]["semantics"]
    assert [p["edges"][0]["node"]["text"] for p in (first, second)] == [
        "The office is in Lyon",
        "Lunch is at Chez Marie",
    ]
    assert second["pageInfo"]["hasNextPage"] is False
    fresh = api.gql(FACTS, {**variables, "first": 10}, key=reader)
    assert texts(fresh) == ["A late fact", "The office is in Lyon", "Lunch is at Chez Marie"]


def test_node_by_global_id_and_nested_episode_steps(api: ApiClient, graph: SeededGraph, reader: str) -> None:
    listing = api.gql(
        "query($s: String!) { episodes(space: $s) { edges { node { id goal steps { seq text } } } } }",
        {"s": graph.space},
        key=reader,
    )
    episode = listing["data"]["episodes"]["edges"][0]["node"]
    assert [s["text"] for s in episode["steps"]] == [
        "The office is in Paris.",
        "We moved the office to Lyon.",
        "Lunch is at Chez Marie.",
    ]
    body = api.gql(
        "query($id: ID!) { node(id: $id) { id ... on Episode { nodeId goal } } }", {"id": episode["id"]}, key=reader
    )
    assert body["data"]["node"] == {"id": episode["id"], "nodeId": graph.ids["episode"], "goal": "plan the offsite"}


def test_subgoal_procedures_with_return_and_uses(api: ApiClient, graph: SeededGraph, reader: str) -> None:
    body = api.gql(
        """query($s: String!) { subgoals(space: $s) { edges { node { text
             procedures { text return uses subgoals { text } evidence { text } } } } } }""",
        {"s": graph.space},
        key=reader,
    )
    subgoal = body["data"]["subgoals"]["edges"][0]["node"]
    assert subgoal["text"] == "book a venue"
    assert subgoal["procedures"] == [
        {"text": "Book the venue two weeks ahead", "return": 0.8, "uses": 3,
         "subgoals": [{"text": "book a venue"}], "evidence": [{"text": "The office is in Paris."}]}
    ]  # fmt: skip


def test_bad_arguments_are_named_errors_not_500(api: ApiClient, graph: SeededGraph, reader: str) -> None:
    too_many = api.gql(FACTS, {"space": graph.space, "first": 10_000}, key=reader)
    assert too_many["data"] is None
    assert too_many["errors"][0]["extensions"]["field"] == "first"
    assert "between 1 and 100" in too_many["errors"][0]["message"]
    bad_date = api.gql(FACTS, {"space": graph.space, "asOf": "yesterday"}, key=reader)
    assert "asOf" in bad_date["errors"][0]["message"]
    bad_cursor = api.gql(FACTS, {"space": graph.space, "after": "nonsense"}, key=reader)
    assert bad_cursor["errors"][0]["extensions"] == {
        "code": "INVALID_INPUT", "field": "after", "requestId": bad_cursor["errors"][0]["extensions"]["requestId"]
    }  # fmt: skip
    empty_space = api.gql(FACTS, {"space": " "}, key=reader)
    assert empty_space["errors"][0]["extensions"]["field"] == "space"
    bad_id = api.gql('{ node(id: "xyz") { id } }', key=reader)
    assert bad_id["errors"][0]["extensions"]["field"] == "id"
    assert error_codes(api.gql(FACTS, {"space": f"x-{uuid.uuid4().hex}"}, key=reader)) == ["FORBIDDEN"]
