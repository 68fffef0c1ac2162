"""Identity belongs to the space (issue #23) and repeats are their own records (issue #24, point 3) — real Neo4j.

Ids are unique per (space, id); one id names one node within a space; concurrent writers of one id with
different content get exactly one winner; the same text under another id, author or date is stored and
linked REPEATS, and recall answers it once."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import Conflict
from graphmem.ids import content_id
from graphmem.memory_graph import MemoryGraph
from graphmem.write.episodes import episode_id
from graphmem.write.memory import Memory
from graphmem.write.summary import IngestSummary

pytestmark = pytest.mark.integration

REFUNDS = "Refunds are processed within 14 days. Alice Martin approves refunds above 500 euros."
DEPOT = "The Rotterdam depot handled 1200 pallets in March. Shipping to Hamburg resumed on Monday."


@pytest.fixture
def graph(store: Store) -> MemoryGraph:
    return MemoryGraph(store, HashingEmbedder(384), Settings(GRAPHMEM_STRUCTURER="rules"))


def counts(store: Store, space: str) -> dict[str, int]:
    rows = store.run_read_text(
        "MATCH (n) WHERE n.space = $space RETURN labels(n)[0] AS label, count(*) AS n", space=space
    )
    return {r["label"]: r["n"] for r in rows}


def evidence_of_facts(store: Store, space: str) -> list[dict[str, Any]]:
    return store.run_read_text(
        "MATCH (f:Semantic {space: $space})-[:EVIDENCED_BY]->(d:Episodic) "
        "RETURN f.id AS fact, f.text AS fact_text, d.id AS doc, d.text AS doc_text, d.space AS doc_space",
        space=space,
    )


def booking(space: str, eid: str | None = None, place: str = "Da Mario") -> Memory:
    memory = Memory("book a table", space=space, id=eid, started_at="2024-03-05T10:00:00Z")
    memory.append(f"open '{place}'", f"{place} opens at 18:00 and has tables for 2 at 20:00.")
    memory.append("submit the booking form", f"Confirmation: table for 2 at {place} booked for 20:00.", reward=1.0)
    return memory.close(outcome=1.0)


# --- 1. ids are unique per space ------------------------------------------------------------------------------
def test_two_spaces_each_hold_the_same_document_id_with_their_own_text(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    other = space + "-b"
    first = graph.ingest_documents(space, [{"id": "doc-1", "text": REFUNDS}], strict=True)
    second = graph.ingest_documents(other, [{"id": "doc-1", "text": DEPOT}], strict=True)

    assert first.ids == ["doc-1"] and second.ids == ["doc-1"]
    assert second.failed == 0 and second.created["Episodic"] == 1  # nothing says doc-1 exists elsewhere
    texts = {
        r["space"]: r["text"]
        for r in store.run_read_text(
            "MATCH (d:Episodic {id: 'doc-1'}) WHERE d.space IN $s RETURN d.space AS space, d.text AS text",
            s=[space, other],
        )
    }
    assert texts == {space: REFUNDS, other: DEPOT}
    for s, text in texts.items():  # each space's facts cite that space's document
        rows = evidence_of_facts(store, s)
        assert rows and all(r["doc_space"] == s and r["doc_text"] == text for r in rows)


def test_a_text_stored_in_another_space_is_no_repeat_and_no_error(graph: MemoryGraph, store: Store, space: str) -> None:
    graph.ingest_documents(space, [{"text": REFUNDS}, {"id": "shared", "text": DEPOT}])
    other = graph.ingest_documents(space + "-b", [{"text": REFUNDS}, {"id": "shared", "text": DEPOT}])

    assert other.skipped == 0 and other.failed == 0 and other.created["Episodic"] == 2
    assert counts(store, space + "-b")["Episodic"] == 2


def test_episode_ids_are_per_space_too(graph: MemoryGraph, store: Store, space: str) -> None:
    graph.insert(booking(space, "ep-1"))
    other = graph.insert(booking(space + "-b", "ep-1", place="Chez Marie"))

    assert other.failed == 0 and other.skipped == 0 and other.created["Episode"] == 1
    steps = store.run_read_text(
        "MATCH (s:Episodic)-[:PART_OF]->(e:Episode {space: $space, id: 'ep-1'}) RETURN s.text AS text",
        space=space + "-b",
    )
    assert len(steps) == 2 and all("Chez Marie" in r["text"] or "submit" in r["text"] for r in steps)


def test_claiming_another_tenants_step_ids_does_not_affect_that_tenant(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    victim = booking(space, "ep-victim")
    step_id = content_id("step", space, episode_id(victim), 0)  # computable by anyone
    thief = graph.ingest_documents(space + "-thief", [{"id": step_id, "text": "claimed"}])
    assert thief.failed == 0

    summary = graph.insert(victim)

    assert summary.failed == 0 and summary.created["Episodic"] == 2
    steps = store.run_read_text(
        "MATCH (s:Episodic)-[:PART_OF]->(:Episode {space: $space, id: 'ep-victim'}) RETURN s.id AS id, s.space AS sp",
        space=space,
    )
    assert sorted(r["id"] for r in steps) == sorted([step_id, content_id("step", space, "ep-victim", 1)])
    assert all(r["sp"] == space for r in steps)
    cited = evidence_of_facts(store, space)
    assert cited and all(r["doc_space"] == space for r in cited)


# --- 2. one id, one node, within a space ----------------------------------------------------------------------
def test_a_document_may_not_take_the_id_of_a_step_fact_procedure_tag_or_episode(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    graph.insert(booking(space, "ep-1"))
    taken = {
        label: store.run_read_text(f"MATCH (n:{label} {{space: $space}}) RETURN n.id AS id LIMIT 1", space=space)[0][
            "id"
        ]
        for label in ("Episodic", "Semantic", "Procedural", "Tag", "Subgoal", "Episode")
    }
    before = counts(store, space)

    summary = graph.ingest_documents(space, [{"id": node_id, "text": f"A note {n}."} for n, node_id in
                                             enumerate(taken.values())])  # fmt: skip

    assert summary.failed == len(taken) and summary.created.get("Episodic", 0) == 0
    assert [e.field for e in summary.errors] == [f"documents[{n}].id" for n in range(len(taken))]
    assert all("already names a" in e.message for e in summary.errors)
    assert counts(store, space) == before
    with pytest.raises(Conflict) as info:
        graph.ingest_documents(space, [{"id": taken["Semantic"], "text": "A note."}], strict=True)
    assert info.value.field == "documents[0].id"


def test_an_episode_may_not_take_a_document_id(graph: MemoryGraph, store: Store, space: str) -> None:
    graph.ingest_documents(space, [{"id": "x-1", "text": REFUNDS}])
    before = counts(store, space)

    summary = graph.ingest_episodes(space, [booking(space, "x-1")])

    assert summary.failed == 1 and summary.errors[0].field == "episodes[0].id"
    assert "already names a document" in summary.errors[0].message
    assert counts(store, space) == before


# --- 3. concurrent writers of one id --------------------------------------------------------------------------
def _race(work: list[Any]) -> list[Any]:
    barrier = threading.Barrier(len(work))
    results: list[Any] = [None] * len(work)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work[i]()
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


WRITERS = 8


def test_concurrent_writers_of_one_document_id_get_one_winner_and_conflicts(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    texts = [f"Writer {i} says the Rotterdam depot moved to Pier {i}. Ann Lee signed the lease {i}." for i in
             range(WRITERS)]  # fmt: skip
    results: list[IngestSummary] = _race(
        [lambda t=t: graph.ingest_documents(space, [{"id": "doc-race", "text": t}]) for t in texts]
    )

    assert all(isinstance(r, IngestSummary) for r in results), results
    stored = [r for r in results if r.created.get("Episodic") == 1]
    refused = [r for r in results if r.failed == 1]
    assert len(stored) == 1 and len(refused) == WRITERS - 1
    assert all(r.errors[0].field == "documents[0].id" and "doc-race" in r.errors[0].message for r in refused)
    winner = store.run_read_text("MATCH (d:Episodic {space: $space, id: 'doc-race'}) RETURN d.text AS t", space=space)
    assert len(winner) == 1
    rows = evidence_of_facts(store, space)
    assert rows and all(r["doc"] == "doc-race" for r in rows)
    pier = winner[0]["t"].split("Pier ")[1].split(".")[0]
    assert all(f"Pier {pier}" in r["fact_text"] or f"lease {pier}" in r["fact_text"] for r in rows)


def test_concurrent_strict_writers_of_one_episode_id_get_one_winner_and_conflicts(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    places = [f"Place {i}" for i in range(WRITERS)]
    results = _race([lambda p=p: graph.ingest_episodes(space, [booking(space, "ep-race", p)], strict=True)
                     for p in places])  # fmt: skip

    stored = [r for r in results if isinstance(r, IngestSummary) and r.created.get("Episode") == 1]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(stored) == 1 and len(refused) == WRITERS - 1, results
    assert all(r.field == "episodes[0].id" and "ep-race" in r.message for r in refused)
    steps = store.run_read_text(
        "MATCH (s:Episodic)-[:PART_OF]->(:Episode {space: $space, id: 'ep-race'}) RETURN s.text AS text", space=space
    )
    assert len(steps) == 2 and len({t["text"].split("'")[1] for t in steps if "open" in t["text"]}) == 1


# --- 4. an episode id re-ingested with other content -----------------------------------------------------------
def test_reingesting_an_episode_id_with_other_content_is_a_conflict(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    graph.insert(booking(space, "ep-1"))
    before = counts(store, space)

    same = graph.insert(booking(space, "ep-1"))
    changed = graph.ingest_episodes(space, [booking(space, "ep-1", place="Chez Marie")])

    assert same.skipped == 1 and same.failed == 0
    assert changed.failed == 1 and changed.skipped == 0 and changed.ids == [None]
    assert changed.errors[0].field == "episodes[0].id" and "ep-1" in changed.errors[0].message
    with pytest.raises(Conflict):
        graph.ingest_episodes(space, [booking(space, "ep-1", place="Chez Marie")], strict=True)
    assert counts(store, space) == before


# --- 5. repeats -----------------------------------------------------------------------------------------------
def test_the_same_text_with_another_id_author_or_date_is_its_own_record_linked_as_a_repeat(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    reminder = "Reminder: the quarterly budget review is on Friday at 10:00 in room B."
    first = graph.ingest_documents(space, [{"text": reminder, "author": "Idris", "event_at": "2024-01-10T09:00:00Z"}])
    facts_before = counts(store, space)["Semantic"]

    later = graph.ingest_documents(
        space,
        [
            {"text": reminder, "author": "Paolo", "event_at": "2024-09-02T09:00:00Z"},  # other author and date
            {"text": reminder, "author": "Idris", "event_at": "2024-01-10T09:00:00Z"},  # exact resend: no-op
            {"id": "memo-7", "text": reminder, "author": "Idris", "event_at": "2024-01-10T09:00:00Z"},  # own id
        ],
    )

    assert later.created["Episodic"] == 2 and later.skipped == 1 and later.failed == 0
    assert later.ids[1] == first.ids[0] and len({first.ids[0], later.ids[0], later.ids[2]}) == 3
    rows = store.run_read_text(
        "MATCH (d:Episodic {space: $space, kind: 'document'}) OPTIONAL MATCH (d)-[:REPEATS]->(e) "
        "RETURN d.id AS id, d.author AS author, d.event_at AS at, e.id AS repeats",
        space=space,
    )
    by_id = {r["id"]: r for r in rows}
    assert by_id[later.ids[0]]["author"] == "Paolo" and by_id[later.ids[0]]["at"].year == 2024
    assert by_id[later.ids[0]]["at"].month == 9
    assert by_id[later.ids[0]]["repeats"] == first.ids[0] and by_id["memo-7"]["repeats"] == first.ids[0]
    assert by_id[first.ids[0]]["repeats"] is None
    assert counts(store, space)["Semantic"] == facts_before  # facts are shared, not copied
    cited = {}
    for r in evidence_of_facts(store, space):
        cited.setdefault(r["fact"], set()).add(r["doc"])
    assert cited and all(docs == {first.ids[0], later.ids[0], "memo-7"} for docs in cited.values())


def test_undated_unauthored_resends_stay_one_record(graph: MemoryGraph, store: Store, space: str) -> None:
    first = graph.ingest_documents(space, [{"text": DEPOT}])
    again = graph.ingest_documents(space, [{"text": DEPOT}, {"text": DEPOT}])

    assert again.skipped == 2 and again.ids == first.ids * 2
    assert counts(store, space)["Episodic"] == 1


def test_recall_answers_a_repeated_text_once_and_names_its_repeats(graph: MemoryGraph, space: str) -> None:
    reminder = "Reminder: the quarterly budget review is on Friday at 10:00 in room B."
    first = graph.ingest_documents(space, [{"id": "r-1", "text": reminder, "author": "Idris",
                                            "event_at": "2024-01-10T09:00:00Z"}])  # fmt: skip
    graph.ingest_documents(space, [{"id": "r-2", "text": reminder, "author": "Paolo",
                                    "event_at": "2024-09-02T09:00:00Z"}])  # fmt: skip

    result = graph.recall("When is the quarterly budget review?", space, kinds=["episodic"], related=False)

    reminders = [h for h in result.hits if h.text == reminder]
    assert [h.id for h in reminders] == first.ids
    assert reminders[0].repeats == ("r-2",)
