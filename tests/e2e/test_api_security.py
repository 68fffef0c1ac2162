"""Keys, tenancy, limits and error masking of the GraphQL API, over HTTP against the real Neo4j."""

from __future__ import annotations

import base64
import logging
from pathlib import Path

import pytest

from graphmem.api.keys import KeyFile
from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiClient, ApiKeys, SeededGraph, error_codes, make_client, seed_graph

FACT_IDS = "query($s: String!) { semantics(space: $s) { edges { node { id nodeId text eventAt } } } }"


@pytest.fixture(scope="module")
def embedder() -> HashingEmbedder:
    return HashingEmbedder(384)


@pytest.fixture
def other_space() -> str:
    import uuid

    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def graphs(store, space: str, other_space: str, embedder) -> tuple[SeededGraph, SeededGraph]:
    return seed_graph(store, space, embedder), seed_graph(store, other_space, embedder)


@pytest.fixture
def keys() -> ApiKeys:
    return ApiKeys()


@pytest.fixture
def api(store, embedder, keys: ApiKeys, tmp_path: Path) -> ApiClient:
    # keys are added to `keys` by the tests before the first request; env records are read at app start
    return make_client(store, embedder, keys, tmp_path / "keys.json")


def test_reads_need_a_valid_key(store, embedder, graphs, tmp_path: Path, caplog) -> None:
    space = graphs[0].space
    api = make_client(store, embedder, ApiKeys(), tmp_path / "keys.json")
    assert error_codes(api.gql(FACT_IDS, {"s": space})) == ["UNAUTHENTICATED"]
    with caplog.at_level(logging.WARNING, logger="graphmem.api.auth"):
        body = api.gql(FACT_IDS, {"s": space}, key="gmk_not_a_real_key")
    assert error_codes(body) == ["UNAUTHENTICATED"] and body["data"] is None
    assert "rejected unknown or revoked API key" in caplog.text and "gmk_not_a_real_key" not in caplog.text
    assert api.gql("{ health { status } }")["data"]["health"]["status"] == "ok"  # health needs no key


def test_a_key_for_space_a_gets_nothing_from_space_b(store, embedder, graphs, tmp_path: Path) -> None:
    a, b = graphs
    keys = ApiKeys()
    key_a, key_all = keys.add("read", a.space), keys.add("read", "*")
    api = make_client(store, embedder, keys, tmp_path / "keys.json")
    own = api.gql(FACT_IDS, {"s": a.space}, key=key_a)["data"]["semantics"]["edges"]
    assert own and all(e["node"]["nodeId"].startswith(a.space) for e in own)
    assert error_codes(api.gql(FACT_IDS, {"s": b.space}, key=key_a)) == ["FORBIDDEN"]
    b_ids = [e["node"]["id"] for e in api.gql(FACT_IDS, {"s": b.space}, key=key_all)["data"]["semantics"]["edges"]]
    assert b_ids
    # node(id) / nodes(ids) with another space's global ids: null, as if they did not exist
    assert api.gql("query($id: ID!) { node(id: $id) { id } }", {"id": b_ids[0]}, key=key_a)["data"] == {"node": None}
    body = api.gql("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", {"ids": b_ids}, key=key_a)
    assert body["data"]["nodes"] == [None] * len(b_ids)
    for root in ("procedures", "episodics", "episodes", "tags", "subgoals"):
        query = f"query($s: String!) {{ {root}(space: $s) {{ edges {{ cursor }} }} }}"
        assert error_codes(api.gql(query, {"s": b.space}, key=key_a)) == ["FORBIDDEN"], root


def test_keys_from_the_key_file_and_revocation(store, embedder, graphs, tmp_path: Path) -> None:
    key_file = KeyFile(tmp_path / "keys.json")
    secret, record = key_file.create(("read",), (graphs[0].space,), name="analyst")
    assert secret not in key_file.path.read_text() and record.sha256 in key_file.path.read_text()
    assert oct(key_file.path.stat().st_mode & 0o777) == "0o600"
    api = make_client(store, embedder, ApiKeys(), key_file.path)
    viewer = api.gql("{ viewer { keyId name scopes spaces } }", key=secret)["data"]["viewer"]
    assert viewer == {"keyId": record.key_id, "name": "analyst", "scopes": ["read"], "spaces": [graphs[0].space]}
    key_file.revoke(record.key_id)
    assert error_codes(api.gql("{ viewer { keyId } }", key=secret)) == ["UNAUTHENTICATED"]


def test_deep_huge_and_aliased_queries_are_refused(api: ApiClient, keys: ApiKeys, graphs) -> None:
    key = keys.add("read", "*")
    api = make_client(api.services.store, api.services.embedder, keys, api.services.settings.api_key_file)
    nested = "node { id }"
    for _ in range(8):
        nested = f"supersedes {{ node {{ supersededBy {{ {nested} }} }} }}"
    deep = api.gql(f'{{ semantics(space: "x") {{ edges {{ node {{ {nested} }} }} }} }}', key=key)
    assert deep["data"] is None and "exceeds maximum operation depth" in deep["errors"][0]["message"]
    huge = api.gql("{ " + " ".join(["health { status }"] * 1000) + " }", key=key)
    assert "exceeds the maximum allowed tokens" in huge["errors"][0]["message"].lower() or huge["errors"]
    aliases = api.gql("{ " + " ".join(f"a{i}: health {{ status }}" for i in range(40)) + " }", key=key)
    assert "aliases" in aliases["errors"][0]["message"]
    response = api.http.post("/graphql", content=b"{" + b" " * 17_000_000 + b"}", headers={
        "Authorization": f"Bearer {key}", "content-type": "application/json"})  # fmt: skip
    assert response.status_code == 413 and response.json()["errors"][0]["extensions"]["code"] == "PAYLOAD_TOO_LARGE"


def test_unexpected_errors_are_masked_with_a_request_id(store, api: ApiClient, keys: ApiKeys, graphs, caplog) -> None:
    space = graphs[0].space
    key = keys.add("read", space)
    api = make_client(store, api.services.embedder, keys, api.services.settings.api_key_file)
    store.run_write_text("MATCH (n:Semantic {id: $id}) SET n.event_at = 'not a date'", id=graphs[0].ids["lunch_fact"])
    with caplog.at_level(logging.ERROR, logger="graphmem.api"):
        response = api.post(FACT_IDS, {"s": space}, key=key)
    body = response.json()
    error = body["errors"][0]
    request_id = error["extensions"]["requestId"]
    assert error["message"] == f"internal error (request id {request_id})"
    assert error["extensions"]["code"] == "INTERNAL" and response.headers["x-request-id"] == request_id
    assert "Traceback" not in response.text and "AttributeError" not in response.text
    assert request_id in caplog.text and "AttributeError" in caplog.text  # logged in full for the operator


def test_introspection_passes_the_limits_so_graphiql_loads(api: ApiClient) -> None:
    from graphql import get_introspection_query

    body = api.gql(get_introspection_query(descriptions=True, input_value_deprecation=True))
    assert "errors" not in body and any(t["name"] == "Semantic" for t in body["data"]["__schema"]["types"])


INGEST = """mutation($input: IngestDocumentsInput!) { ingestDocuments(input: $input) {
  ids userErrors { field code message } } }"""
DOC_IDS = "query($s: String!) { episodics(space: $s) { edges { node { id nodeId text } } } }"


def test_a_global_id_names_its_space_so_one_id_in_two_spaces_reads_as_two_nodes(
    store, embedder, space: str, other_space: str, tmp_path: Path
) -> None:
    keys = ApiKeys()
    writer, reader_all, reader_a = keys.add("write,read", "*"), keys.add("read", "*"), keys.add("read", space)
    api = make_client(store, embedder, keys, tmp_path / "keys.json")
    for s, text in ((space, "The Acme office is in Paris."), (other_space, "Our depot ships on Mondays.")):
        body = api.gql(INGEST, {"input": {"space": s, "documents": [{"id": "doc-1", "text": text}]}}, key=writer)
        assert body["data"]["ingestDocuments"]["userErrors"] == [] and body["data"]["ingestDocuments"]["ids"] == [
            "doc-1"
        ]
    ids = {s: api.gql(DOC_IDS, {"s": s}, key=reader_all)["data"]["episodics"]["edges"][0]["node"]["id"]
           for s in (space, other_space)}  # fmt: skip
    assert ids[space] != ids[other_space]
    node = "query($id: ID!) { node(id: $id) { ... on Episodic { nodeId space text } } }"
    for s, text in ((space, "Paris"), (other_space, "Mondays")):
        got = api.gql(node, {"id": ids[s]}, key=reader_all)["data"]["node"]
        assert got["space"] == s and got["nodeId"] == "doc-1" and text in got["text"]
    assert api.gql(node, {"id": ids[other_space]}, key=reader_a)["data"]["node"] is None  # not this key's space
    legacy = base64.b64encode(b"Episodic:doc-1").decode()  # the older form, without the space
    assert api.gql(node, {"id": legacy}, key=reader_all)["data"]["node"] is None  # two spaces hold it: ambiguous
    assert "Paris" in api.gql(node, {"id": legacy}, key=reader_a)["data"]["node"]["text"]  # one space: resolved
