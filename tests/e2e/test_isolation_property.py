"""Tenant isolation, property-based: random spaces of documents and episodes written through the real
write path, then hypothesis-generated reads through every root (recall, tagVote, routeSubgoal, provenance,
history, node/nodes, listings with nested edges), each by a key scoped to one space. No answer may carry a
node of another space — checked against the store, id by id."""

from __future__ import annotations

import base64
import os
import random
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.api.nodes import parse_global_id
from graphmem.config import Settings
from graphmem.embed.hashing import HashingEmbedder
from graphmem.memory_graph import MemoryGraph
from tests.support.api_graph import ApiKeys, make_client
from tests.support.figures import record_figures

CASES = int(os.environ.get("GRAPHMEM_ISOLATION_CASES", "150"))
WORDS = [
    "office",
    "budget",
    "router",
    "Berlin",
    "Lyon",
    "Atlas",
    "billing",
    "owner",
    "deadline",
    "firmware",
    "lunch",
    "venue",
    "invoice",
]

READS = {
    "recall": "query($s: String!, $q: String!) { recall(space: $s, query: $q, first: 10) "
    "{ hits { nodeId episodeId } episodes { episodeId units { nodeId } } } }",
    "tagVote": "query($s: String!, $q: String!) { tagVote(space: $s, query: $q, first: 10) "
    "{ facts { nodeId node { id tags { id } evidence { id } } } } }",
    "routeSubgoal": "query($s: String!, $q: String!) { routeSubgoal(space: $s, subgoal: $q, first: 5) { nodeId } }",
    "semantics": "query($s: String!) { semantics(space: $s, first: 20) "
    "{ edges { node { id tags { id facts { id } } evidence { id episode { id } } } } } }",
}
BY_ID = {
    "provenance": "query($s: String!, $id: String!) { provenance(space: $s, id: $id) "
    "{ nodeId evidence { nodeId episodeId } lineage { sourceId targetId } } }",
    "history": "query($s: String!, $id: String!) { history(space: $s, id: $id) { versions { nodeId } } }",
}
NODE = "query($id: ID!) { node(id: $id) { id ... on Semantic { tags { id } evidence { id } } } }"


def _random_world(rng: random.Random, space: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    docs = [
        {"id": f"{space}-d{i}", "text": " ".join(rng.choices(WORDS, k=8)).capitalize() + ".",
         "author": rng.choice(["ana", "ben", "chen"]),
         "event_at": f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}T00:00:00Z"}
        for i in range(rng.randint(3, 6))
    ]  # fmt: skip
    episodes = [
        {"id": f"{space}-e{e}", "goal": f"fix the {rng.choice(WORDS)}", "outcome": rng.random(),
         "steps": [{"action": f"check the {rng.choice(WORDS)}", "observation": " ".join(rng.choices(WORDS, k=6))}
                   for _ in range(rng.randint(2, 4))]}
        for e in range(2)
    ]  # fmt: skip
    return docs, episodes


@pytest.fixture(scope="module")
def world(store, tmp_path_factory) -> dict[str, Any]:
    rng = random.Random(20261202)
    embedder = HashingEmbedder(384)
    memory = MemoryGraph(store, embedder, Settings())
    run = rng.randrange(10**9)
    spaces = [f"iso-{run}-{name}" for name in ("a", "b", "c")]
    for space in spaces:
        docs, episodes = _random_world(rng, space)
        assert memory.ingest_documents(space, docs, strict=True).failed == 0
        assert memory.ingest_episodes(space, episodes, strict=True).failed == 0
    owner = {
        row["id"]: row["space"]
        for row in store.run_read_text(
            "MATCH (n) WHERE n.space IN $spaces RETURN n.id AS id, n.space AS space", spaces=spaces
        )
    }
    keys = ApiKeys()
    scoped = {space: keys.add("read", space) for space in spaces}
    api = make_client(store, embedder, keys, tmp_path_factory.mktemp("iso") / "keys.json")
    return {"spaces": spaces, "owner": owner, "keys": scoped, "api": api, "ids": sorted(owner)}


def _returned_ids(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("id",) and isinstance(item, str):
                named = parse_global_id(item)  # a global id names its space and the node's id there
                found.add(named.node_id if named else item)
            elif key in ("nodeId", "episodeId", "sourceId", "targetId") and isinstance(item, str):
                found.add(item)
            else:
                found |= _returned_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= _returned_ids(item)
    return found


def test_no_root_returns_another_spaces_nodes(store, world) -> None:
    owner, api = world["owner"], world["api"]
    checked = {"cases": 0, "ids": 0}

    @settings(max_examples=CASES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(
        key_space=st.sampled_from(world["spaces"]),
        asked_space=st.sampled_from(world["spaces"]),
        root=st.sampled_from([*READS, *BY_ID, "node"]),
        words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
        noise=st.text(max_size=12),
        target=st.sampled_from(world["ids"]),
    )
    def case(key_space: str, asked_space: str, root: str, words: list[str], noise: str, target: str) -> None:
        key = world["keys"][key_space]
        if root in READS:
            variables: dict[str, Any] = {"s": asked_space, "q": " ".join(words) + " " + noise}
            body = api.post(READS[root], variables, key=key).json()
        elif root in BY_ID:
            body = api.post(BY_ID[root], {"s": asked_space, "id": target}, key=key).json()
        else:
            label = "Semantic" if "-d" not in target else "Episodic"
            global_id = base64.b64encode(f"{label}:{target}".encode()).decode()
            body = api.post(NODE, {"id": global_id}, key=key).json()
        returned = _returned_ids(body.get("data"))
        foreign = {i for i in returned if i in owner and owner[i] != key_space}
        unknown = {i for i in returned if i not in owner}
        assert not foreign, (root, key_space, asked_space, foreign)
        assert not unknown, (root, unknown)  # nothing from outside the generated spaces either
        if asked_space != key_space and root != "node":
            assert body.get("errors"), "a key for one space must be refused on another"
        checked["cases"] += 1
        checked["ids"] += len(returned)

    case()
    record_figures("isolation", {"cases": checked["cases"], "ids_checked": checked["ids"], "spaces": 3})
    assert checked["cases"] >= CASES * 0.9
    assert checked["ids"] > 0, "the reads returned nothing, so nothing was checked"


# --- two tenants using the same ids ---------------------------------------------------------------------------
TWIN_WORDS = {
    "a": ["office", "budget", "router", "Berlin", "invoice", "firmware"],
    "b": ["harbour", "ledger", "kiosk", "violin", "glacier", "saffron"],
}
SHARED_IDS = ["doc-1", "doc-2", "doc-3", "ep-1", "ep-2"]
TWIN_READS = {
    "recall": "query($s: String!, $q: String!) { recall(space: $s, query: $q, first: 10) { hits { nodeId text } } }",
    "provenance": "query($s: String!, $id: String!) { provenance(space: $s, id: $id) "
    "{ nodeId text evidence { nodeId text } } }",
    "history": "query($s: String!, $id: String!) { history(space: $s, id: $id) { versions { nodeId text } } }",
}


def _twin_world(rng: random.Random, words: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    docs = [
        {"id": doc_id, "text": " ".join(rng.choices(words, k=8)).capitalize() + ".", "author": "ana"}
        for doc_id in SHARED_IDS[:3]
    ]
    episodes = [
        {"id": ep_id, "goal": f"fix the {rng.choice(words)}",
         "steps": [{"action": f"check the {rng.choice(words)}", "observation": " ".join(rng.choices(words, k=6))}
                   for _ in range(3)]}
        for ep_id in SHARED_IDS[3:]
    ]  # fmt: skip
    return docs, episodes


def _texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for key, item in value.items() for t in ([item] if key == "text" and item else _texts(item))]
    if isinstance(value, list):
        return [t for item in value for t in _texts(item)]
    return []


@pytest.fixture(scope="module")
def twins(store, tmp_path_factory) -> dict[str, Any]:
    rng = random.Random(20261206)
    embedder = HashingEmbedder(384)
    memory = MemoryGraph(store, embedder, Settings())
    run = rng.randrange(10**9)
    spaces = {tenant: f"twin-{run}-{tenant}" for tenant in TWIN_WORDS}
    for tenant, space in spaces.items():  # the second tenant reuses every id of the first
        docs, episodes = _twin_world(rng, TWIN_WORDS[tenant])
        assert memory.ingest_documents(space, docs, strict=True).failed == 0
        assert memory.ingest_episodes(space, episodes, strict=True).failed == 0
    keys = ApiKeys()
    scoped = {tenant: keys.add("read", space) for tenant, space in spaces.items()}
    api = make_client(store, embedder, keys, tmp_path_factory.mktemp("twins") / "keys.json")
    return {"spaces": spaces, "keys": scoped, "api": api}


def test_two_tenants_using_the_same_ids_each_read_only_their_own(store, twins) -> None:
    api, spaces = twins["api"], twins["spaces"]
    for doc_id in SHARED_IDS[:3]:  # each space holds its own node under the shared id
        rows = store.run_read_text(
            "MATCH (d:Episodic {id: $id}) WHERE d.space IN $spaces RETURN d.space AS space, d.text AS text",
            id=doc_id,
            spaces=list(spaces.values()),
        )
        assert sorted(r["space"] for r in rows) == sorted(spaces.values())
    checked = {"cases": 0, "texts": 0}

    @settings(max_examples=max(20, CASES // 3), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(
        tenant=st.sampled_from(sorted(TWIN_WORDS)),
        root=st.sampled_from(sorted(TWIN_READS)),
        words=st.lists(st.sampled_from(TWIN_WORDS["a"] + TWIN_WORDS["b"]), min_size=1, max_size=4),
        target=st.sampled_from(SHARED_IDS[:3]),
    )
    def case(tenant: str, root: str, words: list[str], target: str) -> None:
        other = next(t for t in TWIN_WORDS if t != tenant)
        variables = {"s": spaces[tenant], "q": " ".join(words), "id": target}
        if root == "recall":
            variables.pop("id")
        else:
            variables.pop("q")
        body = api.post(TWIN_READS[root], variables, key=twins["keys"][tenant]).json()
        assert not body.get("errors"), body.get("errors")
        texts = _texts(body.get("data"))
        leaked = [t for t in texts if any(w.lower() in t.lower() for w in TWIN_WORDS[other])]
        assert not leaked, (tenant, root, leaked)
        if root == "provenance":
            assert texts, "a shared id must resolve to the tenant's own node"
        checked["cases"] += 1
        checked["texts"] += len(texts)

    case()
    record_figures("isolation_same_ids", {"cases": checked["cases"], "texts_checked": checked["texts"], "spaces": 2})
    assert checked["texts"] > 0


# --- concurrent writers of one id -----------------------------------------------------------------------------
def test_concurrent_writers_of_one_id_get_one_winner_or_one_record(store) -> None:
    """Random sets of writers race to store one document id, some with the same text: exactly one text is
    stored; writers of that text are told stored or skipped (one record), writers of another text get a
    CONFLICT naming the id; the stored document's facts cite it alone."""
    from concurrent.futures import ThreadPoolExecutor

    from graphmem.errors import Conflict

    memory = MemoryGraph(store, HashingEmbedder(384), Settings())
    checked = {"races": 0, "writers": 0}

    @settings(max_examples=max(6, CASES // 25), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(texts=st.lists(st.sampled_from(["The office is in Lyon.", "The budget is frozen.", "Kai owns billing."]),
                          min_size=2, max_size=6))  # fmt: skip
    def race(texts: list[str]) -> None:
        space = f"race-{uuid.uuid4().hex[:12]}"  # hypothesis reseeds `random` for every example

        def write(text: str) -> str:
            try:
                summary = memory.ingest_documents(space, [{"id": "doc-1", "text": text}], strict=True)
            except Conflict as exc:
                assert "doc-1" in str(exc) or exc.field.endswith(".id"), exc
                return "conflict"
            return "stored" if summary.skipped == 0 else "skipped"

        with ThreadPoolExecutor(len(texts)) as pool:
            outcomes = list(pool.map(write, texts))
        [stored] = store.run_read_text(
            "MATCH (d:Episodic {space: $space, id: 'doc-1'}) RETURN d.text AS text", space=space
        )
        winners = [o for t, o in zip(texts, outcomes, strict=True) if t == stored["text"]]
        losers = [o for t, o in zip(texts, outcomes, strict=True) if t != stored["text"]]
        # the same text twice is one record (idempotent), however the race fell
        assert "stored" in winners and set(winners) <= {"stored", "skipped"}, (texts, outcomes)
        assert set(losers) <= {"conflict"}, (texts, outcomes)
        cited = store.run_read_text(
            "MATCH (f:Semantic {space: $space})-[:EVIDENCED_BY]->(d:Episodic) RETURN DISTINCT d.text AS text",
            space=space,
        )
        assert [row["text"] for row in cited] in ([], [stored["text"]])
        checked["races"] += 1
        checked["writers"] += len(texts)

    race()
    record_figures("isolation_races", checked)
