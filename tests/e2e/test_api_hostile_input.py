"""The API under hostile input, over HTTP against the real Neo4j: breadth, bodies, metadata, numbers and
dates, a store that is down, and the lexical signals a tenant sees (issue #23)."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.read.asof import AsOf
from graphmem.read.legs.lexical import lexical_leg
from tests.support.api_graph import ApiKeys, error_codes, make_client, seed_graph

BREADTH = (
    'query($s: String!) { recall(space: $s, query: "office") { hits { node { ... on Semantic { tags { facts '
    "{ tags { facts { tags { facts { tags { facts { text } } } } } } } } } } } } }"
)
INGEST = "mutation($i: IngestDocumentsInput!) { ingestDocuments(input: $i) { ids userErrors { field code message } } }"
EPISODICS = "query($s: String!) { episodics(space: $s, first: 100) { edges { node { nodeId text %s } } } }"


@pytest.fixture(scope="module")
def embedder() -> HashingEmbedder:
    return HashingEmbedder(384)


def _client(store: Any, embedder: HashingEmbedder, tmp_path: Path, scopes: str, space: str, **settings: Any):
    keys = ApiKeys()
    key = keys.add(scopes, space)
    return make_client(store, embedder, keys, tmp_path / "keys.json", **settings), key


def _user_errors(body: dict[str, Any], root: str) -> list[dict[str, Any]]:
    return ((body.get("data") or {}).get(root) or {}).get("userErrors") or []


def test_a_breadth_attack_is_refused_by_cost_before_it_runs(store, embedder, space: str, tmp_path: Path) -> None:
    seed_graph(store, space, embedder)
    api, key = _client(store, embedder, tmp_path, "read", space)
    queries_before = store.queries_run
    started = time.perf_counter()
    response = api.post(BREADTH, {"s": space}, key=key)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, response.text[:300]
    body = response.json()
    assert body["data"] is None and error_codes(body) == ["QUERY_TOO_COMPLEX"]
    assert "GRAPHMEM_API_MAX_COST" in body["errors"][0]["message"]
    assert elapsed < 1.0 and store.queries_run == queries_before  # priced before anything ran


def test_documented_queries_still_answer(store, embedder, space: str, tmp_path: Path) -> None:
    seeded = seed_graph(store, space, embedder)
    api, key = _client(store, embedder, tmp_path, "read", space)
    route = (
        'query Route($space: String!) { routeSubgoal(space: $space, subgoal: "reserve a room", first: 2) '
        "{ text score node { ... on Procedural { return uses subgoals { text } evidence { text } } } } }"
    )
    assert not api.gql(route, {"space": space}, key=key).get("errors")
    facts = (
        "query($s: String!) { semantics(space: $s, first: 100) { edges { node { text tags { name facts(first: 5)"
        " { text } } evidence { text episode { goal } } supersedes { at node { text } } } } } }"
    )
    body = api.gql(facts, {"s": space}, key=key)
    assert not body.get("errors") and body["data"]["semantics"]["edges"]
    assert seeded.ids


def test_a_response_over_the_size_cap_is_an_error_naming_the_limit(store, embedder, space, tmp_path) -> None:
    api, key = _client(store, embedder, tmp_path, "read", space, GRAPHMEM_API_MAX_RESPONSE_BYTES=10_000)
    response = api.post("{ __schema { types { name description fields { name description } } } }", key=key)
    assert response.status_code == 200 and len(response.content) < 10_000
    body = response.json()
    assert body["data"] is None and error_codes(body) == ["RESPONSE_TOO_LARGE"]
    assert "GRAPHMEM_API_MAX_RESPONSE_BYTES" in body["errors"][0]["message"]
    assert not api.gql("{ health { status } }").get("errors")  # small answers are untouched


class SlowStore:
    """The real store, each read delayed: a query that runs too long."""

    def __init__(self, store: Store, delay_s: float) -> None:
        self._store, self._delay = store, delay_s

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        time.sleep(self._delay)
        return self._store.read(name, **params)


def test_a_query_past_the_time_limit_stops_with_an_error_naming_it(store, embedder, space, tmp_path) -> None:
    seed_graph(store, space, embedder)
    slow = SlowStore(store, 3.0)
    api, key = _client(slow, embedder, tmp_path, "read", space, GRAPHMEM_API_QUERY_TIMEOUT=0.5)
    started = time.perf_counter()
    body = api.gql("query($s: String!) { semantics(space: $s) { edges { node { text } } } }", {"s": space}, key=key)
    assert time.perf_counter() - started < 2.5
    assert error_codes(body) == ["QUERY_TIMEOUT"] and "GRAPHMEM_API_QUERY_TIMEOUT" in body["errors"][0]["message"]


@pytest.mark.parametrize("depth", [100_000, 5_000, 960, 201])
def test_a_deeply_nested_body_is_a_400_naming_the_nesting(store, embedder, space, tmp_path, depth: int) -> None:
    api, key = _client(store, embedder, tmp_path, "read", space)
    headers = {"content-type": "application/json", "Authorization": f"Bearer {key}"}
    bare = api.http.post("/graphql", content=("[" * depth + "]" * depth).encode(), headers=headers)
    assert bare.status_code == 400, bare.text[:200]
    assert "nests more than 200 levels" in bare.text
    variables = '{"x": ' + "[" * depth + "]" * depth + "}"
    wrapped = api.http.post(
        "/graphql", content=('{"query": "{ health { status } }", "variables": ' + variables + "}").encode(),
        headers=headers,
    )  # fmt: skip
    assert wrapped.status_code == 400 and "nests more than 200 levels" in wrapped.text, wrapped.text[:200]


def _nested_text(levels: int) -> str:
    """JSON text of an object nesting `levels` levels (built as text: encoding it would recurse)."""
    return '{"a": ' * (levels - 1) + '{"leaf": true}' + "}" * (levels - 1)


def _nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": True}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


def test_deep_metadata_is_refused_at_ingest_by_field_name(store, embedder, space: str, tmp_path: Path) -> None:
    api, key = _client(store, embedder, tmp_path, "read,write", space)
    headers = {"content-type": "application/json", "Authorization": f"Bearer {key}"}
    documents = '[{"id": "fine", "text": "A fine document."}, {"id": "deep", "text": "Deep.", "metadata": %s}]'
    body = '{"query": "%s", "variables": {"i": {"space": "%s", "documents": %s}}}'
    query = INGEST.replace('"', '\\"')
    response = api.http.post(
        "/graphql", content=(body % (query, space, documents % _nested_text(150))).encode(), headers=headers
    )
    errors = _user_errors(response.json(), "ingestDocuments")
    assert [e["field"] for e in errors] == ["input.documents[1].metadata"], response.text[:300]
    assert errors[0]["code"] == "INVALID_INPUT" and "levels" in errors[0]["message"]
    deeper = api.http.post(
        "/graphql", content=(body % (query, space, documents % _nested_text(960))).encode(), headers=headers
    )
    assert deeper.status_code == 400 and "nests more than" in deeper.text
    big = [{"text": "Big.", "metadata": {"blob": "x" * 70_000}}]
    errors = _user_errors(api.gql(INGEST, {"i": {"space": space, "documents": big}}, key=key), "ingestDocuments")
    assert [e["field"] for e in errors] == ["input.documents[0].metadata"]
    landed = api.gql(EPISODICS % "", {"s": space}, key=key)["data"]["episodics"]["edges"]
    assert [e["node"]["nodeId"] for e in landed] == ["fine"]  # the refused records stored nothing
    ok = [{"id": "meta", "text": "With metadata.", "metadata": _nested(10)}]
    body_ok = api.gql(INGEST, {"i": {"space": space, "documents": ok}}, key=key)
    assert not _user_errors(body_ok, "ingestDocuments"), body_ok
    listed = api.gql(EPISODICS % "metadata", {"s": space}, key=key)["data"]["episodics"]["edges"]
    assert [e["node"]["metadata"] for e in listed if e["node"]["nodeId"].endswith("meta")] == [_nested(10)]


def test_one_unreadable_stored_metadata_never_breaks_other_readers(store, embedder, space, tmp_path) -> None:
    """A value stored before ingest bounded metadata: listings and node(id) answer; only that field fails."""
    seeded = seed_graph(store, space, embedder)
    deep = _nested_text(960)
    store.run_write_text("MATCH (n:Episodic {id: $id}) SET n.metadata = $m", id=seeded.ids["turn1"], m=deep)
    api, key = _client(store, embedder, tmp_path, "read", space)
    body = api.gql(EPISODICS % "", {"s": space}, key=key)
    assert not body.get("errors") and len(body["data"]["episodics"]["edges"]) == 3
    body = api.gql(EPISODICS % "metadata", {"s": space}, key=key)
    edges = body["data"]["episodics"]["edges"]
    assert len(edges) == 3 and sum(e["node"]["metadata"] is None for e in edges) == 3
    assert [e["extensions"]["code"] for e in body["errors"]] == ["UNREADABLE_METADATA"]
    node = api.gql(
        "query($id: ID!) { node(id: $id) { ... on Episodic { text metadata } } }",
        {"id": _global_id("Episodic", seeded.ids["turn1"], space)},
        key=key,
    )
    assert node["data"]["node"]["text"] == "The office is in Paris."


def _global_id(label: str, node_id: str, space: str) -> str:
    from graphmem.api.nodes import global_id

    return str(global_id(label, node_id, space))


@pytest.mark.parametrize("reward", [1.7e308, -1.7e308, 1_000_001.0])
def test_a_reward_outside_the_range_is_refused_and_the_return_stays_finite(store, embedder, space, tmp_path, reward):
    seeded = seed_graph(store, space, embedder)
    api, key = _client(store, embedder, tmp_path, "read,write", space)
    mutation = (
        "mutation($i: RecordOutcomeInput!) { recordOutcome(input: $i) { procedure { return uses } "
        "userErrors { field code message } } }"
    )
    variables = {"i": {"space": space, "procedureId": seeded.ids["procedure"], "reward": reward}}
    errors = _user_errors(api.gql(mutation, variables, key=key), "recordOutcome")
    assert [(e["field"], e["code"]) for e in errors] == [("input.reward", "INVALID_INPUT")]
    read = api.gql("query($s: String!) { procedures(space: $s) { edges { node { return uses } } } }", {"s": space},
                   key=key)  # fmt: skip
    assert not read.get("errors") and read["data"]["procedures"]["edges"][0]["node"] == {"return": 0.8, "uses": 3}


@pytest.mark.parametrize("when", ["9999-12-31T00:00:00Z", "9999-12-31T12:00:00+00:00"])
def test_a_date_at_the_far_future_sentinel_is_refused_by_field_name(store, embedder, space, tmp_path, when) -> None:
    api, key = _client(store, embedder, tmp_path, "read,write", space)
    documents = [{"text": "From the far future.", "eventAt": when}]
    errors = _user_errors(api.gql(INGEST, {"i": {"space": space, "documents": documents}}, key=key), "ingestDocuments")
    assert [(e["field"], e["code"]) for e in errors] == [("input.documents[0].eventAt", "INVALID_INPUT")]


@pytest.mark.parametrize("weight", [1.5, -0.5, 1e308])
def test_an_importance_weight_outside_zero_to_one_is_refused_by_field_name(store, embedder, space, tmp_path, weight):
    api, key = _client(store, embedder, tmp_path, "read,write", space)
    documents = [{"text": "Weighted.", "importance": weight}]
    errors = _user_errors(api.gql(INGEST, {"i": {"space": space, "documents": documents}}, key=key), "ingestDocuments")
    assert [(e["field"], e["code"]) for e in errors] == [("input.documents[0].importance", "INVALID_INPUT")]
    assert "between 0 and 1" in errors[0]["message"]


def test_a_store_that_is_down_fails_fast_and_health_hides_its_address(embedder, space, tmp_path) -> None:
    import socket

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    with Store(f"bolt://127.0.0.1:{port}", "neo4j", "x") as down:
        api, key = _client(down, embedder, tmp_path, "read", space)
        started = time.perf_counter()
        body = api.gql("query($s: String!) { semantics(space: $s) { edges { cursor } } }", {"s": space}, key=key)
        assert time.perf_counter() - started < 10  # the driver's defaults took 31-62 s
        assert error_codes(body) == ["STORE_UNAVAILABLE"]
        health = api.http.get("/healthz")
        assert health.status_code == 503 and "bolt://" not in health.text and str(port) not in health.text
        public = api.gql("{ health { status neo4jUri detail } }")["data"]["health"]
        assert public["status"] == "degraded" and public["neo4jUri"] is None
        assert "bolt://" not in json.dumps(public) and str(port) not in json.dumps(public)


def test_lexical_signals_a_tenant_sees_do_not_move_with_other_spaces(store, embedder, space, tmp_path) -> None:
    """Another space adding documents that use a space's words (one full-text index per label, so Lucene's
    statistics move) changes neither the space's lexical scores (BM25 over its own statistics) nor the
    lexical signals the API returns (rank, 1/rank)."""
    other = f"test-{uuid.uuid4().hex[:12]}"
    api, key = _client(store, embedder, tmp_path, "read,write", "*")
    mine = [
        {"id": "d1", "text": "The zephyr report covers zephyr winds and zephyr storms."},
        {"id": "d2", "text": "A note that mentions the zephyr once among many other words here."},
        {"id": "d3", "text": "Budget figures for the quarter, nothing about the wind."},
    ]
    assert not _user_errors(api.gql(INGEST, {"i": {"space": space, "documents": mine}}, key=key), "ingestDocuments")
    recall = (
        'query($s: String!) { recall(space: $s, query: "zephyr", mode: EPISODIC, related: false) '
        "{ hits { nodeId signals { leg rank score } } } }"
    )

    def seen() -> dict[str, Any]:
        hits = api.gql(recall, {"s": space}, key=key)["data"]["recall"]["hits"]
        return {h["nodeId"]: [s for s in h["signals"] if s["leg"] == "lexical"] for h in hits}

    def raw() -> list[float]:
        leg = lexical_leg(store, space, "zephyr", embedder.embed(["zephyr"])[0], AsOf.resolve(), ["episodic"], 10)
        return [row.score for row in leg.rows]

    before_seen, before_raw = seen(), raw()
    theirs = [{"text": f"Zephyr notes number {i}: zephyr again."} for i in range(40)]
    body = api.gql(INGEST, {"i": {"space": other, "documents": theirs}}, key=key)
    assert not _user_errors(body, "ingestDocuments"), body
    after_seen, after_raw = seen(), raw()
    assert before_raw == after_raw  # another space's documents no longer move this space's BM25
    assert any(before_seen.values()) and after_seen == before_seen
