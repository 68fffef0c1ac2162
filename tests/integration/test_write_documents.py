"""Documents stored whole, with derived facts, repeats, bad records and supersession — real Neo4j."""

from __future__ import annotations

import json

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import Conflict, InvalidInput
from graphmem.memory_graph import MemoryGraph

pytestmark = pytest.mark.integration

DOCS = [
    {
        "id": "policy-v1",
        "text": "Refunds are processed within 14 days. Alice Martin approves refunds above 500 euros.",
        "author": "Alice Martin",
        "event_at": "2024-03-05T10:00:00Z",
        "source": "wiki",
        "metadata": {"team": "billing"},
    },
    {
        "text": "The Rotterdam depot handled 1200 pallets in March. Shipping to Hamburg resumed on Monday.",
        "author": "Bruno Silva",
        "event_at": "2024-04-01T09:00:00Z",
    },
]


def docs(space: str) -> list[dict]:
    """DOCS with ids naming the space (kept from when given ids were global)."""
    return [{**DOCS[0], "id": f"{space}-policy-v1"}, DOCS[1]]


def counts(store: Store, space: str) -> dict[str, int]:
    rows = store.run_read_text(
        "MATCH (n) WHERE n.space = $space RETURN labels(n)[0] AS label, count(*) AS n", space=space
    )
    return {r["label"]: r["n"] for r in rows}


@pytest.fixture
def graph(store: Store) -> MemoryGraph:
    return MemoryGraph(store, HashingEmbedder(384), Settings(GRAPHMEM_INGEST_BATCH_SIZE=2))


def test_documents_are_stored_whole_with_author_date_and_derived_facts(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    summary = graph.ingest_documents(space, docs(space))

    assert summary.created["Episodic"] == 2 and summary.failed == 0 and summary.skipped == 0
    assert summary.ids[0] == f"{space}-policy-v1" and summary.ids[1].startswith("doc_")
    doc = store.run_read_text("MATCH (d:Episodic {id: $id}) RETURN d", id=f"{space}-policy-v1")[0]["d"]
    assert doc["space"] == space and doc["kind"] == "document" and doc["text"] == DOCS[0]["text"]
    assert doc["author"] == "Alice Martin" and doc["source"] == "wiki"
    assert json.loads(doc["metadata"]) == {"team": "billing"}
    assert doc["event_at"] == doc["valid_from"] and doc["valid_to"].year == 9999 and doc["expired_at"].year == 9999
    assert doc["status"] == "active" and len(doc["embedding"]) == 384 and doc["caption"].startswith("2024-03-05")
    assert len(doc["content_hash"]) == 64

    facts = store.run_read_text(
        "MATCH (f:Semantic)-[:EVIDENCED_BY]->(d:Episodic {id: $id}) "
        "RETURN f.text AS text, f.author AS author, f.valid_from = d.event_at AS dated, "
        "[(t:Tag)-[:TAGS]->(f) | t.name] AS tags ORDER BY text",
        id=f"{space}-policy-v1",
    )
    assert [f["text"] for f in facts] == [
        "Alice Martin approves refunds above 500 euros.",
        "Refunds are processed within 14 days.",
    ]
    assert all(f["author"] == "Alice Martin" and f["dated"] for f in facts)
    assert "Alice Martin" in facts[0]["tags"] and "500 euros" in facts[0]["tags"]
    siblings = store.run_read_text(
        "MATCH (a:Semantic)-[:SIBLING]-(b:Semantic) WHERE a.space = $space RETURN count(*) AS n", space=space
    )
    assert siblings[0]["n"] > 0
    assert counts(store, space).get("Episode", 0) == 0  # documents are not grouped under an Episode


def test_fact_derivation_can_be_switched_off(store: Store, space: str) -> None:
    graph = MemoryGraph(store, HashingEmbedder(384), Settings(GRAPHMEM_DERIVE_FACTS=False))
    graph.ingest_documents(space, docs(space))
    assert counts(store, space) == {"Episodic": 2}


def test_exact_repeats_are_skipped_and_reingest_changes_nothing(graph: MemoryGraph, store: Store, space: str) -> None:
    graph.ingest_documents(space, docs(space))
    before = counts(store, space)

    again = graph.ingest_documents(space, docs(space))

    assert again.skipped == 2 and sum(again.created.values()) == 0 and again.failed == 0
    assert counts(store, space) == before
    repeat = graph.ingest_documents(space, [{"text": DOCS[1]["text"], "id": f"{space}-another"}])
    assert repeat.skipped == 0 and repeat.created["Episodic"] == 1  # its own record...
    assert repeat.created["Semantic"] == 0  # ...sharing the facts of the first
    assert repeat.ids == [f"{space}-another"]


def test_bad_records_are_rejected_by_name_and_the_rest_stored(graph: MemoryGraph, store: Store, space: str) -> None:
    records = [
        docs(space)[0],
        {"text": "   "},
        {"text": 42},
        {"text": "Valid text about Lisbon.", "event_at": "not a date"},
        "not an object",
        {"text": "Valid text about Warsaw.", "supersedes": ["no-such-doc"]},
        {"text": "Valid text about Warsaw.", "space": "elsewhere"},
        DOCS[1],
    ]

    summary = graph.ingest_documents(space, records)

    assert [e.field for e in summary.errors] == [
        "documents[1].text",
        "documents[2].text",
        "documents[3].event_at",
        "documents[4]",
        "documents[6].space",
        "documents[5].supersedes[0]",
    ]
    assert summary.failed == 6 and summary.created["Episodic"] == 2
    assert summary.ids[1] is None and summary.ids[7] is not None
    texts = store.run_read_text("MATCH (d:Episodic) WHERE d.space = $space RETURN d.text AS t", space=space)
    assert all(t["t"].strip() for t in texts) and len(texts) == 2  # no placeholder stored


def test_strict_mode_rejects_the_whole_batch(graph: MemoryGraph, store: Store, space: str) -> None:
    with pytest.raises(InvalidInput) as info:
        graph.ingest_documents(space, [DOCS[1], {"text": ""}], strict=True)
    assert info.value.field == "documents[1].text"
    assert counts(store, space) == {}


def test_an_id_with_other_text_is_refused_and_another_space_may_hold_it(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    first = docs(space)[0]
    graph.ingest_documents(space, [first])

    other = graph.ingest_documents(space + "-b", [first])
    changed = graph.ingest_documents(space, [{**first, "text": "Refunds now take 30 days."}])

    assert other.failed == 0 and other.created["Episodic"] == 1  # ids belong to the space
    assert changed.errors[0].field == "documents[0].id" and "supersedes" in changed.errors[0].message
    with pytest.raises(Conflict):
        graph.ingest_documents(space, [{**first, "text": "Refunds now take 30 days."}], strict=True)


def test_supersedes_links_the_new_version_over_the_old(graph: MemoryGraph, store: Store, space: str) -> None:
    v1, v2, v0, a1, a2 = (f"{space}-{name}" for name in ("policy-v1", "policy-v2", "policy-v0", "a1", "a2"))
    graph.ingest_documents(space, docs(space)[:1])
    new = {
        "id": v2,
        "text": "Refunds are processed within 30 days.",
        "author": "Dana Okafor",
        "event_at": "2024-06-01T00:00:00Z",
        "supersedes": [v1],
    }
    early = {"id": v0, "text": "Refund rules draft.", "event_at": "2023-01-01T00:00:00Z", "supersedes": [v1]}

    summary = graph.ingest_documents(space, [new, early])

    assert summary.ids == [v2, None] and summary.errors[0].field == "documents[1].event_at"
    rows = store.run_read_text(
        "MATCH (n:Episodic {id: $new})-[r:SUPERSEDES]->(o:Episodic {id: $old}) "
        "RETURN r.at = n.event_at AS dated, r.by AS by, r.kind AS kind, o.status AS status, o.valid_to AS valid_to",
        new=v2,
        old=v1,
    )
    assert rows and rows[0]["dated"] and rows[0]["by"] == "Dana Okafor" and rows[0]["kind"] == "document"
    assert rows[0]["status"] == "superseded" and rows[0]["valid_to"].iso_format().startswith("2024-06-01")
    # a supersession within one call, older document first
    graph.ingest_documents(
        space,
        [
            {"id": a1, "text": "Office in Lyon.", "event_at": "2020-01-01T00:00:00Z"},
            {"id": a2, "text": "Office moved to Milan.", "event_at": "2021-01-01T00:00:00Z", "supersedes": [a1]},
        ],
    )
    linked = store.run_read_text(
        "MATCH (:Episodic {id: $new})-[r:SUPERSEDES]->(:Episodic {id: $old}) RETURN count(r) AS n", new=a2, old=a1
    )
    assert linked[0]["n"] == 1


def test_concurrent_overlapping_document_ingests_store_each_document_and_tag_once(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    import threading

    shared = [
        {"text": f"Ticket {i} about the Lisbon warehouse was closed by Alice Martin.", "event_at": "2024-01-02"}
        for i in range(6)
    ]
    errors: list[BaseException] = []

    def ingest(offset: int) -> None:
        try:
            graph.ingest_documents(space, shared[offset:] + shared[:offset])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=ingest, args=(n,)) for n in (0, 3, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert not errors
    assert counts(store, space)["Episodic"] == 6
    duplicates = store.run_read_text(
        "MATCH (t:Tag) WHERE t.space = $space WITH t.norm_name AS norm, count(*) AS n WHERE n > 1 RETURN norm",
        space=space,
    )
    assert duplicates == []
    lisbon = store.run_read_text(
        "MATCH (t:Tag {norm_name: 'lisbon'})-[:TAGS]->(f:Semantic) WHERE t.space = $space RETURN count(f) AS n",
        space=space,
    )
    assert lisbon[0]["n"] == 6  # one fact per document, no duplicates
