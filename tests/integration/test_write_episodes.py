"""Trajectories and chat sessions compiled into the graph, against a real Neo4j."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput, NotFound
from graphmem.memory_graph import MemoryGraph
from graphmem.write.memory import Memory

pytestmark = pytest.mark.integration


def counts(store: Store, space: str) -> dict[str, int]:
    rows = store.run_read_text(
        "MATCH (n) WHERE n.space = $space RETURN labels(n)[0] AS label, count(*) AS n", space=space
    )
    return {r["label"]: r["n"] for r in rows}


def rel_counts(store: Store, space: str) -> dict[str, int]:
    rows = store.run_read_text(
        "MATCH (a)-[r]->(b) WHERE a.space = $space RETURN type(r) AS type, count(*) AS n", space=space
    )
    return {r["type"]: r["n"] for r in rows}


def booking(space: str, goal: str = "book a table for two in Paris", session: str = "s1") -> Memory:
    memory = Memory(goal, space=space, session_id=session, started_at="2024-03-05T10:00:00Z")
    memory.append("search 'quiet restaurants in Paris'", "Results: Le Calme (4.5 stars) and Chez Marie.")
    memory.append("search 'quiet Italian restaurants in Paris'", "Results: Da Mario has 4.7 stars.", reward=0.5)
    memory.append("open 'Da Mario'", "Da Mario opens at 18:00 and has tables for 2 at 20:00.")
    memory.append("click 'Book 20:00'", "The booking form asks for a name and a phone number.")
    memory.append("fill the form with the name 'Ann Lee'", "The form shows Ann Lee as the guest name.")
    memory.append("submit the booking form", "Confirmation: table for 2 at Da Mario booked for 20:00.", reward=1.0)
    return memory.close(outcome=1.0)


@pytest.fixture
def graph(store: Store) -> MemoryGraph:
    return MemoryGraph(store, HashingEmbedder(384), Settings(GRAPHMEM_STRUCTURER="rules"))


@pytest.fixture
def semantic_graph(store: Store, minilm: Any) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings(GRAPHMEM_STRUCTURER="rules"))


def test_six_step_trajectory_yields_episode_steps_facts_tags_subgoals_and_procedures(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    summary = graph.insert(booking(space))

    episode_id = summary.ids[0]
    nodes = counts(store, space)
    assert nodes["Episode"] == 1 and nodes["Episodic"] == 6
    assert nodes["Semantic"] >= 6 and nodes["Tag"] >= 6
    assert nodes["Subgoal"] >= 1 and nodes["Procedural"] >= nodes["Subgoal"]
    assert summary.created["Episodic"] == 6 and summary.failed == 0

    steps = store.run_read_text(
        "MATCH (s:Episodic)-[:PART_OF]->(e:Episode {id: $id}) RETURN s ORDER BY s.seq", id=episode_id
    )
    assert [s["s"]["seq"] for s in steps] == list(range(6))
    first = steps[0]["s"]
    assert first["kind"] == "step" and first["subgoal"] == "search quiet restaurants paris"
    assert "Action: search 'quiet restaurants in Paris'" in first["text"] and "Le Calme" in first["text"]
    assert first["state"] and first["status"] == "active" and len(first["embedding"]) == 384
    chain = store.run_read_text(
        "MATCH p = (a:Episodic {seq: 0})-[:NEXT*5]->(b:Episodic {seq: 5}) WHERE a.space = $space RETURN count(p) AS n",
        space=space,
    )
    assert chain[0]["n"] == 1

    # facts come from observations AND actions, with provenance, tags and siblings
    facts = store.run_read_text(
        "MATCH (f:Semantic)-[:EVIDENCED_BY]->(s:Episodic) WHERE f.space = $space "
        "RETURN f.text AS text, s.seq AS seq, [(t:Tag)-[:TAGS]->(f) | t.name] AS tags",
        space=space,
    )
    texts = {f["text"] for f in facts}
    assert any("Le Calme" in t for t in texts)
    assert any(t.startswith("search 'quiet restaurants in Paris'") for t in texts)
    assert all(f["tags"] for f in facts)
    assert rel_counts(store, space).get("SIBLING", 0) >= 1

    # one procedure per segment, routed by a subgoal, evidenced by its steps, with a return
    procedures = store.run_read_text(
        "MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(p:Procedural)-[:EVIDENCED_BY]->(s:Episodic) WHERE p.space = $space "
        "RETURN g.text AS subgoal, p.text AS text, p.`return` AS ret, p.uses AS uses, collect(s.seq) AS steps "
        "ORDER BY steps[0]",
        space=space,
    )
    assert procedures[0]["subgoal"] == "search quiet restaurants paris"
    assert procedures[0]["uses"] == 0
    assert procedures[0]["ret"] == pytest.approx(0.5)  # the segment's step rewards
    assert sorted(s for p in procedures for s in p["steps"]) == list(range(6))  # every step in one segment
    assert procedures[-1]["ret"] == pytest.approx(1.0)


def test_reingesting_an_episode_changes_nothing(graph: MemoryGraph, store: Store, space: str) -> None:
    memory = booking(space)
    graph.insert(memory)
    before, rels_before = counts(store, space), rel_counts(store, space)

    again = graph.insert(booking(space))
    same_object = graph.insert(memory)

    assert again.skipped == 1 and sum(again.created.values()) == 0
    assert same_object.skipped == 1 and same_object.ids == again.ids
    assert counts(store, space) == before and rel_counts(store, space) == rels_before
    undated = Memory("open up", space=space).append("open the door", "The door is open.").close()
    assert graph.insert(undated).skipped == 0
    assert graph.insert(undated).skipped == 1  # times filled in at insert do not change its identity


def test_two_trajectories_with_matching_subgoals_share_a_subgoal(
    semantic_graph: MemoryGraph, store: Store, space: str
) -> None:
    first = Memory("plan a trip", space=space).append("find cheap flights to Rome", "Flights from 89 euros.")
    second = Memory("visit family", space=space).append("search cheap flights to Rome", "Flights from 95 euros.")
    semantic_graph.insert(first.close(outcome=1.0))
    semantic_graph.insert(second.close(outcome=0.0))

    rows = store.run_read_text(
        "MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(p:Procedural) WHERE g.space = $space "
        "RETURN g.text AS text, g.members AS members, count(p) AS procedures",
        space=space,
    )
    assert len(rows) == 1, rows
    assert rows[0]["procedures"] == 2 and rows[0]["members"] == 2
    assert rows[0]["text"] == "find cheap flights rome"  # the cluster keeps its first text


def test_near_duplicate_tags_reuse_one_tag(semantic_graph: MemoryGraph, store: Store, space: str) -> None:
    one = Memory("note preferences", space=space).append("", "The user's preference is a quiet table.")
    two = Memory("note preferences again", space=space).append("", "Their user preference is a window seat.")
    three = Memory("note colours", space=space).append("", "My favourite colour is dark green.")
    four = Memory("note colors", space=space).append("", "Her favorite color is light blue.")
    for memory in (one, two, three, four):
        semantic_graph.insert(memory.close())

    tags = store.run_read_text(
        "MATCH (t:Tag) WHERE t.space = $space RETURN t.name AS name, t.norm_name AS norm, "
        "COUNT { (t)-[:TAGS]->() } AS facts",
        space=space,
    )
    by_norm = {t["norm"]: t for t in tags}
    assert by_norm["user preference"]["facts"] == 2  # same normal form
    colour = [t for t in tags if "colo" in t["norm"]]
    assert len(colour) == 1, tags  # different normal forms, cosine >= 0.9 through the tag vector index
    assert colour[0]["facts"] == 2


def test_tags_that_carry_other_numbers_stay_apart(semantic_graph: MemoryGraph, store: Store, space: str) -> None:
    # "2024-01-12" / "2024-10-02" are at cosine 0.94 and "ward-4c ..." / "ward-7b ..." near it too: each fact
    # must keep the tag of its own date and ward, across calls (vector index) and within one (clustering).
    semantic_graph.insert(Memory("card", space=space).append("", "Card updated 2024-01-12 by the duty desk.").close())
    semantic_graph.insert(Memory("card", space=space).append("", "Card updated 2024-10-02 by the duty desk.").close())
    two = Memory("wards", space=space).append("", "The ward-4c visiting hours are 14:00-20:00.")
    semantic_graph.insert(two.append("", "The ward-7b visiting hours are 14:00-20:00.").close())

    rows = store.run_read_text(
        "MATCH (t:Tag)-[:TAGS]->(f:Semantic) WHERE t.space = $space RETURN t.name AS tag, collect(f.text) AS facts",
        space=space,
    )
    facts = {r["tag"]: r["facts"] for r in rows}
    for tag in ("2024-01-12", "2024-10-02", "ward-4c visiting hours", "ward-7b visiting hours"):
        assert len(facts[tag]) == 1 and tag in facts[tag][0], facts
    assert len(facts["duty desk"]) == 2 and len(facts["14:00-20:00"]) == 2  # same numbers still share a tag


def test_concurrent_overlapping_ingests_leave_no_duplicate_tags_or_subgoals(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    memories = [booking(space, goal=f"book a table, attempt {i}", session=f"s{i}") for i in range(4)]
    errors: list[BaseException] = []

    def ingest(memory: Memory) -> None:
        try:
            graph.insert(memory)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=ingest, args=(m,)) for m in memories]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert not errors
    duplicates = store.run_read_text(
        "MATCH (n) WHERE n.space = $space AND (n:Tag OR n:Subgoal) "
        "WITH labels(n)[0] AS label, coalesce(n.norm_name, n.text) AS key, count(*) AS n WHERE n > 1 "
        "RETURN label, key, n",
        space=space,
    )
    assert duplicates == []
    assert counts(store, space)["Episode"] == 4
    shared = store.run_read_text(
        "MATCH (g:Subgoal {text: 'search quiet restaurants paris'}) WHERE g.space = $space RETURN g.members AS m",
        space=space,
    )
    assert shared == [{"m": 4}]


def test_chat_sessions_become_chat_episodes_with_turns(graph: MemoryGraph, store: Store, space: str) -> None:
    sessions = [
        {
            "session_id": "lme-1",
            "date": "2023-05-08T13:56:00Z",
            "turns": [
                {"speaker": "Caroline", "text": "I went to the LGBTQ support group yesterday."},
                {
                    "speaker": "Melanie",
                    "text": "That's great! I painted a sunrise last week.",
                    "time": "2023-05-08T14:00:00Z",
                },
            ],
        },
        {"session_id": "lme-2", "date": "2023-05-09", "turns": [{"role": "user", "content": "I adopted 2 cats."}]},
        {"session_id": "bad", "turns": [{"speaker": "Caroline", "text": "  "}]},
    ]

    summary = graph.ingest_chat_sessions(space, sessions)

    assert summary.failed == 1 and summary.errors[0].field == "sessions[2].turns[0].text"
    assert summary.ids[0] and summary.ids[1] and summary.ids[2] is None
    turns = store.run_read_text(
        "MATCH (t:Episodic)-[:PART_OF]->(e:Episode {session_id: 'lme-1'}) WHERE e.space = $space "
        "RETURN e.kind AS ekind, t.kind AS kind, t.text AS text, t.author AS author, t.seq AS seq, "
        "t.event_at AS at ORDER BY t.seq",
        space=space,
    )
    assert [t["author"] for t in turns] == ["Caroline", "Melanie"]
    assert {t["ekind"] for t in turns} == {"chat"} and {t["kind"] for t in turns} == {"turn"}
    assert turns[0]["text"] == "I went to the LGBTQ support group yesterday."
    assert turns[0]["at"].iso_format().startswith("2023-05-08T13:56")
    assert turns[1]["at"].iso_format().startswith("2023-05-08T14:00")
    facts = store.run_read_text(
        "MATCH (t:Tag {norm_name: 'caroline'})-[:TAGS]->(f:Semantic)-[:EVIDENCED_BY]->(:Episodic {kind: 'turn'}) "
        "WHERE f.space = $space RETURN f.text AS text",
        space=space,
    )
    assert facts == [{"text": "Caroline: I went to the LGBTQ support group yesterday."}]
    assert counts(store, space).get("Procedural", 0) == 0


def test_a_transcript_line_that_names_its_speaker_is_not_named_twice(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    line = "Caroline: I ran a charity race for mental health last Saturday."
    graph.ingest_chat_sessions(space, [{"session_id": "pasted", "turns": [{"speaker": "Caroline", "text": line}]}])
    rows = store.run_read_text(
        "MATCH (f:Semantic)-[:EVIDENCED_BY]->(t:Episodic {kind: 'turn'}) WHERE t.space = $space "
        "RETURN t.text AS turn, t.caption AS caption, f.text AS fact",
        space=space,
    )
    assert rows and {r["turn"] for r in rows} == {line}  # stored as sent
    assert {r["caption"] for r in rows} == {line}
    assert {r["fact"] for r in rows} == {line}  # not "Caroline: Caroline: ..."


def test_malformed_episode_records_are_rejected_by_name_and_the_rest_stored(
    graph: MemoryGraph, store: Store, space: str
) -> None:
    records = [
        {"goal": "g1", "steps": [{"action": "open the door", "observation": "The door is open."}]},
        {"goal": "g2", "steps": []},
        {"goal": "g3", "steps": [{"action": "look", "observation": "ok", "at": "yesterday"}]},
        {"goal": "g4", "steps": [{"action": "", "observation": ""}]},
    ]

    summary = graph.ingest_episodes(space, records)

    assert [e.field for e in summary.errors] == [
        "episodes[1].steps",
        "episodes[2].steps[0].at",
        "episodes[3].steps[0]",
    ]
    assert summary.failed == 3 and counts(store, space)["Episode"] == 1
    with pytest.raises(InvalidInput) as info:
        graph.ingest_episodes(space + "-strict", records, strict=True)
    assert info.value.field == "episodes[1].steps"
    assert counts(store, space + "-strict") == {}


def test_record_outcome_updates_return_and_uses(graph: MemoryGraph, store: Store, space: str) -> None:
    graph.insert(Memory("g", space=space).append("open the door", "The door is open.").close(outcome=1.0))
    proc_id = store.run_read_text("MATCH (p:Procedural) WHERE p.space = $space RETURN p.id AS id", space=space)[0]["id"]

    first = graph.record_outcome(space, proc_id, 0.0)
    second = graph.record_outcome(space, proc_id, 0.0)

    assert first["uses"] == 1 and first["return"] == pytest.approx(0.5)
    assert second["uses"] == 2 and second["return"] == pytest.approx(1 / 3)
    with pytest.raises(NotFound):
        graph.record_outcome(space + "-other", proc_id, 1.0)
    with pytest.raises(InvalidInput):
        graph.record_outcome(space, proc_id, float("nan"))
