"""Erasure of anything a caller wrote: a document by id, an author's records, a whole space; audited, resumable,
and afterwards nothing of the erased text can be found by any read or index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.api.nodes import global_id
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.forget import forget
from graphmem.evolution.supersede import supersede
from graphmem.memory_graph import MemoryGraph
from graphmem.read.recall import LEGS
from graphmem.timeutil import FAR_FUTURE
from tests.support.api_graph import ApiKeys, make_client
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration

SECRET = "quokkaplume"  # the distinctive word of the erased text
SECRET_DOC = f"The vault password is {SECRET} and Ana keeps the {SECRET} vault key in the blue cabinet."


@pytest.fixture
def memory(store: Store) -> MemoryGraph:
    return MemoryGraph(store, HashingEmbedder(384), Settings())


def _count(store: Store, space: str) -> dict[str, int]:
    rows = store.run_read_text(
        "MATCH (n {space: $space}) UNWIND labels(n) AS label RETURN label, count(*) AS c", space=space
    )
    return {r["label"]: r["c"] for r in rows}


def _ingest(memory: MemoryGraph, space: str, documents: list[dict[str, Any]]) -> list[str]:
    summary = memory.ingest_documents(space, documents, strict=True)
    return [i for i in summary.ids if i]


def _recall_texts(memory: MemoryGraph, space: str, query: str) -> list[str]:
    """Every text any recall leg (alone and fused) returns for `query`, with the packed evidence."""
    texts: list[str] = []
    for legs in [[leg] for leg in LEGS] + [list(LEGS)]:
        for mode in ("semantic", "episodic", "auto"):
            result = memory.recall(query, space, legs=legs, mode=mode, k=20)
            texts += [h.text or "" for h in result.hits] + [result.evidence]
            texts += [a.text or "" for a in result.related if hasattr(a, "text")]
    return texts


def _index_hits(store: Store, space: str, memory: MemoryGraph) -> list[str]:
    """Direct queries to the full-text and vector indexes of every kind, in the space, for the secret."""
    hits: list[str] = []
    for index in ("semantic_text", "episodic_text", "procedural_text", "semantic_text_in_space", "tag_name"):
        rows = store.run_read_text(
            "CALL db.index.fulltext.queryNodes($index, $q) YIELD node WHERE node.space = $space "
            "RETURN coalesce(node.text, node.name, node.observation, '') AS text",
            index=index,
            q=SECRET + "*",
            space=space,
        )
        hits += [r["text"] for r in rows]
    vector = memory.embedder.embed([SECRET_DOC])[0]
    for index in ("semantic_embedding", "episodic_embedding", "procedural_embedding", "tag_embedding"):
        rows = store.run_read_text(
            "CALL db.index.vector.queryNodes($index, 200, $vector) YIELD node, score WHERE node.space = $space "
            "RETURN coalesce(node.text, node.name, '') AS text",
            index=index,
            vector=vector,
            space=space,
        )
        hits += [r["text"] for r in rows]
    return [h for h in hits if SECRET in h.casefold()]


def test_a_document_is_erased_by_id_and_nothing_of_its_text_can_be_found(
    store: Store, memory: MemoryGraph, space: str, tmp_path: Path
) -> None:
    secret, lunch = _ingest(memory, space, [
        {"text": SECRET_DOC, "author": "ana", "event_at": "2024-03-01T09:00:00Z"},
        {"text": "Team lunch is every Friday at Chez Marie near the station.", "author": "bo",
         "event_at": "2024-03-02T09:00:00Z"},
    ])  # fmt: skip
    query = f"What is the vault password {SECRET}?"
    assert any(SECRET in t.casefold() for t in _recall_texts(memory, space, query))  # found before
    assert _index_hits(store, space, memory)

    keys = ApiKeys()
    reader = keys.add("read", space)
    api = make_client(store, memory.embedder, keys, tmp_path / "keys.json")
    node_query = "query($id: ID!) { node(id: $id) { id } }"
    before = api.gql(node_query, {"id": global_id("Episodic", secret, space)}, key=reader)
    assert before["data"]["node"]["id"]

    report = forget(store, space, secret, by="admin@acme", reason="leaked credential")

    assert report.state == "completed" and report.removed["Episodic"] == [secret]
    assert report.removed["Semantic"]  # the facts derived from it went with it
    assert not any(SECRET in t.casefold() for t in _recall_texts(memory, space, query))
    assert _index_hits(store, space, memory) == []
    with pytest.raises(NotFound):
        memory.provenance(secret, space)
    with pytest.raises(NotFound):
        memory.history(space, secret)
    for fact in report.removed["Semantic"]:
        with pytest.raises(NotFound):
            memory.provenance(fact, space)
    for root in ("semantics", "episodics", "procedures", "tags"):
        body = api.gql(f"query($s: String!) {{ {root}(space: $s, first: 100) {{ edges {{ node {{ nodeId }} }} }} }}",
                       {"s": space}, key=reader)  # fmt: skip
        assert "errors" not in body, body
        listed = {e["node"]["nodeId"] for e in body["data"][root]["edges"]}
        assert not listed & {secret, *report.removed["Semantic"], *report.removed["Tag"]}, root
        assert SECRET not in json.dumps(body).casefold()
    for label, node_id in [("Episodic", secret)] + [("Semantic", f) for f in report.removed["Semantic"]]:
        node = api.gql("query($id: ID!) { node(id: $id) { id } }", {"id": global_id(label, node_id, space)}, key=reader)
        assert "errors" not in node and node["data"]["node"] is None, node_id
    assert memory.provenance(lunch, space).id == lunch  # the other document stays

    [audit] = store.read("audit/erasures", space=space)
    assert (audit["target_kind"], audit["target"], audit["by"], audit["reason"], audit["state"]) == (
        "id", secret, "admin@acme", "leaked credential", "completed")  # fmt: skip
    assert json.loads(audit["removed"])["Episodic"] == [secret]
    assert json.loads(audit["removed_counts"])["Semantic"] == len(report.removed["Semantic"])
    [record] = store.run_read_text("MATCH (a:AuditRecord {id: $id}) RETURN properties(a) AS p", id=report.audit_id)
    assert SECRET not in json.dumps(record["p"], default=str).casefold()  # ids and counts, never the text


def test_an_authors_records_are_erased_and_a_shared_session_keeps_the_other_speakers(
    store: Store, memory: MemoryGraph, space: str
) -> None:
    docs = _ingest(memory, space, [
        {"text": f"Ana's home address is 12 {SECRET} Street in Oslo.", "author": "ana",
         "event_at": "2024-01-05T09:00:00Z"},
        {"text": "The build server restarts every night at two.", "author": "bo", "event_at": "2024-01-06T09:00:00Z"},
    ])  # fmt: skip
    shared = memory.chat(space, [
        {"speaker": "ana", "text": f"My badge number is {SECRET} 4471."},
        {"speaker": "bo", "text": "The printer on floor two is broken again."},
    ], session_date="2024-02-01T10:00:00Z").ids[0]  # fmt: skip
    alone = memory.chat(space, [{"speaker": "ana", "text": f"I am allergic to {SECRET} nuts."}],
                        session_date="2024-02-02T10:00:00Z").ids[0]  # fmt: skip
    assert shared and alone

    report = forget(store, space, author="ana", by="dpo@acme", reason="erasure request")

    assert report.target_kind == "author" and report.target == "ana" and report.state == "completed"
    assert docs[0] in report.removed["Episodic"] and docs[1] not in report.removed["Episodic"]
    assert report.removed["Episode"] == [alone]  # a session entirely hers goes; the shared one stays
    left = store.run_read_text(
        "MATCH (u:Episodic {space: $space}) RETURN u.author AS author, u.text AS text, "
        "[(u)-[:PART_OF]->(e) | e.id] AS episodes",
        space=space,
    )
    assert {r["author"] for r in left} == {"bo"}
    assert [r["episodes"] for r in left if "printer" in (r["text"] or "")] == [[shared]]
    facts = store.run_read_text("MATCH (f:Semantic {space: $space}) RETURN f.text AS text", space=space)
    assert facts and not any(SECRET in f["text"].casefold() for f in facts)
    assert not any(SECRET in t.casefold() for t in _recall_texts(memory, space, f"What is {SECRET}?"))
    assert _index_hits(store, space, memory) == []
    with pytest.raises(NotFound) as nothing_left:
        forget(store, space, author="ana", by="dpo@acme")
    assert nothing_left.value.field == "author"


def test_a_whole_space_is_erased_and_only_its_audit_record_stays(store: Store, memory: MemoryGraph, space: str) -> None:
    other = space + "-other"
    _ingest(memory, space, [{"text": f"Project {SECRET} ships in May.", "author": "ana"}])
    memory.chat(space, [{"speaker": "bo", "text": f"Is {SECRET} late?"}], session_date="2024-02-01T10:00:00Z")
    _ingest(memory, other, [{"text": f"Project {SECRET} ships in May.", "author": "ana"}])
    before_other = _count(store, other)

    report = forget(store, space, all=True, by="admin", batch_size=2)

    assert report.state == "completed" and report.removed_counts["Episodic"] == 2
    assert _count(store, space) == {"AuditRecord": 1}
    assert _count(store, other) == before_other  # another space is out of reach


def test_what_the_erased_evidence_had_closed_is_reopened_and_shared_facts_follow_their_other_evidence(
    store: Store, space: str
) -> None:
    graph = GraphBuilder(store, space, HashingEmbedder(384))
    q = graph.qualify
    graph.episode("keep")
    graph.episode("gone")
    graph.episodic("k1", "The office is in Paris", episode="keep", event_at=day("2024-01-01"))
    graph.episodic("k2", "Standup is at nine", episode="keep", event_at=day("2024-01-01"), seq=1)
    graph.episodic("k3", "Standup is at ten", episode="keep", event_at=day("2024-05-01"), seq=2)
    graph.episodic("g1", f"The office moved to Lyon; standup at nine ({SECRET})", episode="gone",
                   event_at=day("2024-03-01"))  # fmt: skip
    graph.semantic("paris", "The office is in Paris", valid_from=day("2024-01-01"), evidence=("k1",))
    graph.semantic("standup", "Standup is at nine", valid_from=day("2024-01-01"), evidence=("k2", "g1"))
    supersede(store, space, q("g1"), q("k1"), day("2024-03-01"), by="ana")  # closes k1 and the fact on it
    supersede(store, space, q("k3"), q("k2"), day("2024-05-01"), by="bo")  # standup still rests on g1
    assert graph.node("paris")["status"] == "superseded" and graph.node("standup")["status"] == "active"

    report = forget(store, space, q("gone"), by="admin")

    assert report.reopened == (q("k1"),)
    for name, label in (("k1", "Episodic"), ("paris", "Semantic")):  # the unit and the fact resting on it
        node = graph.node(name, label)
        assert (node["status"], node["valid_to"]) == ("active", FAR_FUTURE), name
    standup = graph.node("standup")  # now rests only on k2, which k3 closed on 1 May
    assert (standup["status"], standup["valid_to"]) == ("superseded", day("2024-05-01"))
    evidence = store.run_read_text(
        "MATCH (:Semantic {id: $id})-[:EVIDENCED_BY]->(u) RETURN u.id AS id", id=q("standup")
    )
    assert [r["id"] for r in evidence] == [q("k2")]


def test_a_large_erasure_stopped_after_one_batch_is_finished_by_running_it_again(
    store: Store, memory: MemoryGraph, space: str
) -> None:
    ids = _ingest(memory, space, [
        {"text": f"Note {n} from Ana about {SECRET} topic number {n}.", "author": "ana",
         "event_at": f"2024-01-{n + 1:02d}T09:00:00Z"} for n in range(7)
    ] + [{"text": "Bo's note about the parking rules.", "author": "bo"}])  # fmt: skip

    first = forget(store, space, author="ana", by="dpo", reason="erasure request", batch_size=3, max_batches=1)

    assert first.state == "started" and len(first.removed["Episodic"]) == 3
    [open_record] = store.read("audit/erasures", space=space)
    assert (open_record["state"], open_record["batches"], open_record["runs"]) == ("started", 1, 1)
    assert json.loads(open_record["removed_counts"])["Episodic"] == 3

    second = forget(store, space, author="ana", by="someone-else", batch_size=3)

    assert second.resumed and second.state == "completed" and second.audit_id == first.audit_id
    assert second.by == "dpo" and second.reason == "erasure request"  # the request's own record, continued
    assert sorted(second.removed["Episodic"]) == sorted(ids[:7])
    [done] = store.read("audit/erasures", space=space)
    assert (done["state"], done["batches"], done["runs"]) == ("completed", 3, 2)
    assert done["completed_at"] is not None
    assert json.loads(done["removed_counts"])["Episodic"] == 7
    remaining = store.run_read_text("MATCH (u:Episodic {space: $space}) RETURN u.author AS a", space=space)
    assert [r["a"] for r in remaining] == ["bo"]


FORGET = """mutation($input: ForgetInput!) { forget(input: $input) {
  auditId removed { label count } reopened completed userErrors { field code message } } }"""


def test_graphql_forget_takes_an_id_an_author_or_the_whole_space_with_an_admin_key(
    store: Store, memory: MemoryGraph, space: str, tmp_path: Path
) -> None:
    doc, other, theirs = _ingest(memory, space, [
        {"text": f"The {SECRET} door code is 1234.", "author": "ana"},
        {"text": "The canteen closes at three.", "author": "bo"},
        {"text": "Paolo's reminder: renew the parking permit.", "author": "paolo"},
    ])  # fmt: skip
    keys = ApiKeys()
    admin, writer = keys.add("admin", space), keys.add("read,write", space)
    api = make_client(store, memory.embedder, keys, tmp_path / "keys.json")

    def call(key: str, **input: Any) -> dict[str, Any]:
        return dict(api.gql(FORGET, {"input": {"space": space, **input}}, key=key))

    assert call(writer, id=doc)["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    refused = [
        call(admin, **bad)["data"]["forget"]["userErrors"][0]["field"]
        for bad in ({}, {"id": doc, "episodeId": doc}, {"id": doc, "author": "ana"}, {"id": "nope"})
    ]
    assert refused == ["input.id", "input.id", "input.id", "input.id"]
    by_id = call(admin, id=doc, reason="leaked door code")["data"]["forget"]
    assert by_id["userErrors"] == [] and by_id["completed"] and {"label": "Episodic", "count": 1} in by_id["removed"]
    by_author = call(admin, author="paolo")["data"]["forget"]
    assert {"label": "Episodic", "count": 1} in by_author["removed"]
    assert call(admin, author="paolo")["data"]["forget"]["userErrors"][0]["field"] == "input.author"
    audits = store.read("audit/erasures", space=space)
    assert {(a["target_kind"], a["target"], a["reason"]) for a in audits} == {
        ("id", doc, "leaked door code"), ("author", "paolo", None)}  # fmt: skip
    assert audits[0]["by"].startswith("api-key:")
    everything = call(admin, all=True)["data"]["forget"]
    assert everything["completed"] and _count(store, space) == {"AuditRecord": 3}
    assert other and theirs


def test_mcp_forget_tool_needs_confirm_and_erases_through_the_api(
    store: Store, memory: MemoryGraph, space: str, tmp_path: Path
) -> None:
    import asyncio

    from mcp.server.mcpserver.exceptions import ToolError

    from graphmem.client import Client
    from graphmem.mcp_server import build_mcp_server

    [doc] = _ingest(memory, space, [{"text": f"The {SECRET} wifi password is hunter2.", "author": "ana"}])
    keys = ApiKeys()
    admin = keys.add("admin,read,write", space)
    api = make_client(store, memory.embedder, keys, tmp_path / "keys.json")
    client = Client(api_key=admin)
    client._http = api.http  # the in-process app over Starlette's TestClient (an httpx.Client)
    client._http.headers["Authorization"] = f"Bearer {admin}"
    server = build_mcp_server(client, default_space=space)

    assert "forget" in {tool.name for tool in asyncio.run(server.list_tools())}
    with pytest.raises(ToolError, match="confirm"):
        asyncio.run(server.call_tool("forget", {"id": doc}))
    assert _count(store, space).get("Episodic") == 1
    result = asyncio.run(server.call_tool("forget", {"id": doc, "reason": "wifi password", "confirm": True}))
    payload = json.loads("".join(getattr(block, "text", "") for block in result.content))
    assert payload["completed"] and {"label": "Episodic", "count": 1} in payload["removed"]
    assert "Episodic" not in _count(store, space)
    with pytest.raises(ToolError, match="id"):
        asyncio.run(server.call_tool("forget", {"id": doc, "confirm": True}))


def test_hostile_erasure_requests_erase_nothing_outside_their_target(
    store: Store, memory: MemoryGraph, space: str
) -> None:
    other = space + "-victim"
    [theirs] = _ingest(memory, other, [{"text": "The victim's payroll runs on the 25th.", "author": "ana"}])
    [mine] = _ingest(memory, space, [{"text": "Our standup is at nine.", "author": "bo"}])
    before = (_count(store, other), _count(store, space))
    attempts = [
        {"id": theirs},  # another space's document id
        {"id": "*"},
        {"id": "' OR 1=1 //"},
        {"id": f"{mine}' }}) DETACH DELETE n //"},
        {"author": "ana"},  # an author who wrote only in the other space
        {"author": "*"},
        {"author": '") MATCH (n) DETACH DELETE n //'},
        {"author": "bo OR 1=1"},
    ]
    for attempt in attempts:
        with pytest.raises(NotFound):
            forget(store, space, by="mallory", **attempt)
    for bad in ({}, {"id": mine, "author": "bo"}, {"id": " "}, {"author": ""}, {"id": mine, "all": True}):
        with pytest.raises(InvalidInput):
            forget(store, space, by="mallory", **bad)
    with pytest.raises(InvalidInput) as anonymous:
        forget(store, space, mine, by=" ")
    assert anonymous.value.field == "by"
    assert (_count(store, other), _count(store, space)) == before
    assert store.read("audit/erasures", space=space) == [] and store.read("audit/erasures", space=other) == []
