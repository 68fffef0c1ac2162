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


# Nested list fields by type: (field, type it holds, takes `first`).
LIST_FIELDS = {
    "Semantic": [("tags", "Tag", False), ("evidence", "Episodic", False), ("supersedes { node", "Semantic", False)],
    "Tag": [("facts", "Semantic", True)],
    "Episodic": [("facts", "Semantic", True)],
}
LIMIT_CODES = {"QUERY_TOO_COMPLEX", "RESPONSE_TOO_LARGE", "QUERY_TIMEOUT"}


@st.composite
def nested_list_queries(draw: st.DrawFn) -> str:
    """A recall or listing whose facts walk tags / evidence / facts lists up to 9 levels, some with `first`."""
    kind, opened, closers = "Semantic", [], []
    for _ in range(draw(st.integers(1, 9))):
        field, target, paged = draw(st.sampled_from(LIST_FIELDS[kind]))
        first = draw(st.sampled_from([None, 1, 5, 20, 100])) if paged else None
        name, *rest = field.split(" { ")
        opened.append(f"{name}(first: {first}) {{" if first else f"{name} {{")
        opened += [f"{part} {{" for part in rest]
        closers.append("}" * (1 + len(rest)))
        kind = target
    inner = " ".join(opened) + " nodeId " + " ".join(closers)
    if draw(st.booleans()):
        return 'query($s: String!) { recall(space: $s, query: "office lunch") { hits { node { ... on Semantic { ' + (
            inner + " } } } } }"
        )
    first = draw(st.sampled_from([1, 20, 100]))
    return f"query($s: String!) {{ semantics(space: $s, first: {first}) {{ edges {{ node {{ {inner} }} }} }} }}"


@pytest.fixture(scope="module")
def breadth_api(store, tmp_path_factory) -> tuple[ApiClient, str, str]:
    import uuid

    from tests.support.api_graph import seed_graph

    embedder = HashingEmbedder(384)
    space = f"test-{uuid.uuid4().hex[:12]}"
    seed_graph(store, space, embedder)
    keys = ApiKeys()
    key = keys.add("read", space)
    return make_client(store, embedder, keys, tmp_path_factory.mktemp("breadth") / "keys.json"), key, space


def test_nested_list_queries_are_refused_quickly_or_answered_within_the_caps(breadth_api) -> None:
    import time

    from graphql import parse

    from graphmem.api.limits import query_cost
    from graphmem.api.schema import schema

    api, key, space = breadth_api
    settings_ = api.services.settings
    seen = {"refused": 0, "answered": 0}

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(nested_list_queries())
    def send(document: str) -> None:
        started = time.perf_counter()
        response = api.post(document, {"s": space}, key=key)
        elapsed = time.perf_counter() - started
        _check(response)
        assert len(response.content) <= settings_.api_max_response_bytes
        body = response.json()
        codes = {str((e.get("extensions") or {}).get("code", "")) for e in body.get("errors") or []}
        too_deep = any("depth" in e["message"] for e in body.get("errors") or [])
        estimate = query_cost(schema._schema, parse(document).definitions, None, {}, settings_.api_max_first)
        if estimate > settings_.api_max_cost and not too_deep:
            assert codes == {"QUERY_TOO_COMPLEX"}, (estimate, document, body)
        if codes & LIMIT_CODES or too_deep:
            seen["refused"] += 1
            assert elapsed < 1.0 or "QUERY_TIMEOUT" in codes, (elapsed, document)
        else:
            assert not body.get("errors"), body["errors"][:1]
            seen["answered"] += 1
        assert elapsed < settings_.api_query_timeout_s + 2

    send()
    record_figures("fuzz_breadth", {"nested_list_queries": sum(seen.values()), **seen, "status_5xx": 0})
    assert seen["refused"] and seen["answered"]
