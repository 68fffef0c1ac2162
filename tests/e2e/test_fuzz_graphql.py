"""Schema-driven GraphQL fuzzing (hypothesis-graphql) plus hand-written hostile input, in process over HTTP
semantics: zero 5xx answers, zero leaked stack traces, and the database unchanged by refused requests.

The number of generated requests is GRAPHMEM_FUZZ_REQUESTS (1,000 in `make test`; `make reliability` sends
10,000 and writes the figures to docs/reliability.md).
"""

from __future__ import annotations

import os

import hypothesis_graphql
import pytest
from graphql import StringValueNode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.cli.serve_cmd import export_sdl
from graphmem.embed.hashing import HashingEmbedder
from graphmem.timeutil import utc_now
from tests.support.api_graph import ApiClient, ApiKeys, make_client
from tests.support.figures import record_figures

FUZZ_REQUESTS = int(os.environ.get("GRAPHMEM_FUZZ_REQUESTS", "1000"))
LEAK_MARKERS = ("Traceback", 'File "/', "neo4j.exceptions", "bolt://", "Cypher")

DATETIMES = st.one_of(
    st.datetimes(timezones=st.just(None)).map(lambda d: d.isoformat() + "Z"),
    st.sampled_from(["2024-02-30T00:00:00Z", "not-a-date", "9999-99-99", "", "2024-01-01T00:00:00+25:00", "NaN"]),
    st.text(max_size=30),
)
CUSTOM_SCALARS = {
    "DateTime": DATETIMES.map(lambda s: StringValueNode(value=s)),
    "JSON": st.text(max_size=20).map(lambda s: StringValueNode(value=s)),
}

HOSTILE_TEXTS = [
    "' OR 1=1 //", '"}) MATCH (n) DETACH DELETE n //', "`Semantic`", "$space", "}{", "\\", "a AND (b OR c:)~ ^ * ? [ ]",
    "*:*", "text:/.*/", "x" * 200_000, "\x00\x01\x02", "${jndi:ldap://x}", "<script>alert(1)</script>",
]  # fmt: skip


def _written_since(store, since) -> int:
    """Nodes recorded since `since`, outside the spaces other test suites use (`test-`, `bench-`, `perf-`:
    they may share a development server). In CI nothing else writes, so this counts every write."""
    return int(
        store.run_read_text(
            "MATCH (n) WHERE n.recorded_at >= $since AND NOT n.space =~ '(test-|bench-|perf-).*' RETURN count(n) AS n",
            since=since,
        )[0]["n"]
    )


def _check(response) -> None:
    assert response.status_code < 500, response.text[:500]
    body = response.text
    for marker in LEAK_MARKERS:
        assert marker not in body, f"{marker!r} leaked: {body[:500]}"


@pytest.fixture(scope="module")
def fuzz_api(store, tmp_path_factory) -> tuple[ApiClient, str]:
    keys = ApiKeys()
    key = keys.add("read,write,admin", "fuzz-only-space")
    api = make_client(store, HashingEmbedder(384), keys, tmp_path_factory.mktemp("fuzz") / "keys.json")
    return api, key


def test_generated_requests_never_5xx_nor_leak_and_change_nothing(store, fuzz_api) -> None:
    api, key = fuzz_api
    started = utc_now()
    sent = {"n": 0}

    @settings(
        max_examples=FUZZ_REQUESTS // 2,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(
        st.one_of(
            hypothesis_graphql.from_schema(export_sdl(), custom_scalars=CUSTOM_SCALARS),
            hypothesis_graphql.from_schema(
                export_sdl(), custom_scalars=CUSTOM_SCALARS, mode=hypothesis_graphql.Mode.NEGATIVE
            ),
        ),
        st.booleans(),
    )
    def send(document: str, with_key: bool) -> None:
        sent["n"] += 1
        _check(api.post(document, key=key if with_key else None))

    send()
    send()  # a second, differently seeded pass: together FUZZ_REQUESTS requests
    written = _written_since(store, started)
    record_figures("fuzz", {"generated_requests": sent["n"], "status_5xx": 0, "leaked_traces": 0,
                            "nodes_written_by_refused_requests": written})  # fmt: skip
    assert sent["n"] >= FUZZ_REQUESTS * 0.9
    assert _written_since(store, started) == 0, "a refused request changed the database"


@pytest.mark.parametrize("text", HOSTILE_TEXTS, ids=range(len(HOSTILE_TEXTS)))
def test_hostile_recall_and_ingest_text(store, fuzz_api, text: str) -> None:
    api, key = fuzz_api
    started = utc_now()
    recall = "query($s: String!, $q: String!) { recall(space: $s, query: $q) { hits { text } } }"
    _check(api.post(recall, {"s": "fuzz-only-space", "q": text}, key=key))
    _check(api.post(recall, {"s": text, "q": text}, key=key))
    ingest = "mutation($i: IngestDocumentsInput!) { ingestDocuments(input: $i) { ids userErrors { field } } }"
    _check(api.post(ingest, {"i": {"space": text, "documents": [{"text": text}]}}, key=key))
    assert _written_since(store, started) == 0


@pytest.mark.parametrize(
    "variables",
    [
        {"first": -1},
        {"first": 10**9},
        {"first": 2**40},
    ],
)
def test_bad_first_is_a_named_error(fuzz_api, variables: dict) -> None:
    api, key = fuzz_api
    query = 'query($first: Int) { semantics(space: "fuzz-only-space", first: $first) { edges { cursor } } }'
    response = api.post(query, variables, key=key)
    _check(response)
    errors = response.json().get("errors") or []
    assert errors and ("first" in errors[0]["message"] or "Int" in errors[0]["message"])


def test_deeply_nested_and_aliased_and_invalid_utf8(fuzz_api) -> None:
    api, key = fuzz_api
    deep = '{ semantics(space: "fuzz-only-space") { edges { node { ' + "tags { facts { " * 12 + "id" + " } }" * 12
    deep += " } } } }"
    _check(api.post(deep, key=key))
    aliased = "{ " + " ".join(f"a{i}: health {{ status }}" for i in range(500)) + " }"
    response = api.post(aliased, key=key)
    _check(response)
    assert response.json().get("errors")
    raw = api.http.post(
        "/graphql",
        content=b'{"query": "{ health { status } }", "x": "\xff\xfe"}',
        headers={"content-type": "application/json", "Authorization": f"Bearer {key}"},
    )
    _check(raw)
    assert raw.status_code == 400
    surrogate = api.http.post(
        "/graphql",
        content=b'{"query": "query($q: String!) { recall(space: \\"fuzz-only-space\\", query: $q) { evidence } }", '
        b'"variables": {"q": "\\ud800"}}',
        headers={"content-type": "application/json", "Authorization": f"Bearer {key}"},
    )
    _check(surrogate)
    assert surrogate.status_code == 400
    nan = api.http.post(
        "/graphql",
        content=b'{"query": "query($f: Int) { semantics(space: \\"fuzz-only-space\\", first: $f) '
        b'{ edges { cursor } } }", "variables": {"f": NaN}}',
        headers={"content-type": "application/json", "Authorization": f"Bearer {key}"},
    )
    _check(nan)


def test_oversize_batch_is_refused_by_name(store, fuzz_api) -> None:
    api, key = fuzz_api
    started = utc_now()
    ingest = "mutation($i: IngestDocumentsInput!) { ingestDocuments(input: $i) { ids userErrors { field message } } }"
    documents = [{"text": f"document {i}"} for i in range(5000)]
    response = api.post(ingest, {"i": {"space": "fuzz-only-space", "documents": documents}}, key=key)
    _check(response)
    body = response.json()
    messages = [e["message"] for e in body.get("errors") or []] + [
        e["message"] for e in ((body.get("data") or {}).get("ingestDocuments") or {}).get("userErrors", [])
    ]
    fields = [e.get("field") for e in ((body.get("data") or {}).get("ingestDocuments") or {}).get("userErrors", [])]
    assert messages and (fields == ["input.documents"] or any("body" in m for m in messages)), body
    assert _written_since(store, started) == 0
