"""Consolidation against a real Neo4j: one conflict, one restatement, one unrelated pair — and nothing else."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.evolution.consolidate import consolidate
from graphmem.pairs import RuleClassifier
from graphmem.timeutil import FAR_FUTURE
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration

SETTINGS = Settings(GRAPHMEM_CONSOLIDATE_CLASSIFIER="rules")


def build_fixture(graph: GraphBuilder) -> None:
    """Three pairs: a changed hotline number, a reworded standup time, and two unrelated billing facts."""
    for n in (1, 2, 3):
        graph.episode(f"ep{n}", started_at=day(f"2024-0{n}-01"))
        graph.episodic(f"turn{n}", f"chat turn {n}", episode=f"ep{n}", event_at=day(f"2024-0{n}-01"), author="ana")
    graph.semantic(
        "c1",
        "The support hotline number is 555-0100",
        valid_from=day("2024-01-10"),
        tags=("hotline",),
        evidence=("turn1",),
        author="ana",
    )
    graph.semantic(
        "c2",
        "The support hotline number is 555-0199",
        valid_from=day("2024-05-01"),
        tags=("hotline",),
        evidence=("turn3",),
        author="bo",
    )
    graph.semantic(
        "r1",
        "The team standup is at 9:30 every weekday",
        valid_from=day("2024-02-01"),
        tags=("standup",),
        evidence=("turn1",),
        author="ana",
        credibility=0.6,
    )
    graph.semantic(
        "r2",
        "Every weekday the team standup is at 9:30",
        valid_from=day("2024-03-01"),
        tags=("standup", "meetings"),
        evidence=("turn2",),
        author="cy",
        credibility=0.5,
    )
    graph.semantic(
        "u1", "Ana leads the billing team", valid_from=day("2024-01-05"), tags=("billing",), evidence=("turn2",)
    )
    graph.semantic(
        "u2",
        "The billing service runs on port 8080",
        valid_from=day("2024-01-06"),
        tags=("billing",),
        evidence=("turn3",),
    )


def snapshot(store: Store, space: str) -> dict:
    """Everything consolidation may touch in a space: node states and every edge, comparable across runs."""
    nodes = store.run_read_text(
        "MATCH (n:Semantic {space: $space}) RETURN n.id AS id, n.status AS status, n.valid_from AS vf, "
        "n.valid_to AS vt, n.credibility AS cred, n.text AS text ORDER BY id",
        space=space,
    )
    edges = store.run_read_text(
        "MATCH (a:Semantic {space: $space})-[r]-(b) RETURN a.id AS a, type(r) AS type, b.id AS b, "
        "properties(r) AS props ORDER BY a, type, b",
        space=space,
    )
    return {"nodes": nodes, "edges": edges}


@pytest.fixture
def graph(store: Store, space: str, minilm) -> GraphBuilder:
    graph = GraphBuilder(store, space, minilm)
    build_fixture(graph)
    return graph


def test_one_conflict_one_restatement_one_unrelated_pair(graph: GraphBuilder) -> None:
    store, space = graph.store, graph.space
    before = graph.counts()

    report = consolidate(store, space, SETTINGS)

    after = graph.counts()
    assert after["Semantic"] == before["Semantic"] + 1
    assert all(after[label] >= before[label] for label in before)
    assert (report.superseded, report.merged_nodes, report.merged) == (1, 1, 2)
    assert report.conflicts >= 1 and report.restatements >= 1 and report.pairs_seen >= 3

    q = graph.qualify
    supersedes = store.run_read_text(
        "MATCH (n:Semantic {space: $space})-[r:SUPERSEDES]->(o) RETURN n.id AS new, o.id AS old, r.at AS at, "
        "r.kind AS kind, r.by AS by",
        space=space,
    )
    assert [(s["new"], s["old"], s["kind"], s["by"]) for s in supersedes] == [
        (q("c2"), q("c1"), "conflict", "consolidation:rules")
    ]
    assert supersedes[0]["at"].to_native() == day("2024-05-01")
    old = graph.node("c1")
    assert (old["status"], old["valid_to"], old["credibility"]) == ("superseded", day("2024-05-01"), 0.5)
    assert old["text"] == "The support hotline number is 555-0100"

    [merged] = store.run_read_text(
        "MATCH (m:Semantic {space: $space})-[r:MERGED_FROM]->(s) "
        "RETURN m.id AS id, collect(s.id) AS sources, collect(r.at) AS at",
        space=space,
    )
    assert sorted(merged["sources"]) == [q("r1"), q("r2")]
    assert {at.to_native() for at in merged["at"]} == {day("2024-03-01")}
    node = graph.node(merged["id"])
    assert node["valid_from"] == day("2024-03-01")  # the latest source's start: no leak into February
    assert node["valid_to"] == FAR_FUTURE and node["status"] == "active"
    assert node["text"] == "Every weekday the team standup is at 9:30"
    assert node["credibility"] == pytest.approx(0.8)  # corroborated: 1 - (1 - 0.6) * (1 - 0.5)
    tags = store.run_read_text("MATCH (t:Tag)-[:TAGS]->(m:Semantic {id: $id}) RETURN t.name AS t", id=merged["id"])
    assert sorted(r["t"] for r in tags) == ["meetings", "standup"]
    evidence = store.run_read_text(
        "MATCH (m:Semantic {id: $id})-[:EVIDENCED_BY]->(e) RETURN e.id AS e", id=merged["id"]
    )
    assert sorted(r["e"] for r in evidence) == [q("turn1"), q("turn2")]
    for source in ("r1", "r2"):
        props = graph.node(source)
        assert props["status"] == "merged" and props["valid_to"] == day("2024-03-01")
    for untouched in ("u1", "u2", "c2"):
        props = graph.node(untouched)
        assert props["status"] == "active" and props["valid_to"] == FAR_FUTURE


def test_a_second_run_changes_nothing(graph: GraphBuilder) -> None:
    consolidate(graph.store, graph.space, SETTINGS)
    first = snapshot(graph.store, graph.space)
    counts = graph.counts()

    again = consolidate(graph.store, graph.space, SETTINGS)

    assert (again.superseded, again.merged_nodes, again.merged) == (0, 0, 0)
    assert snapshot(graph.store, graph.space) == first
    assert graph.counts() == counts


def test_dry_run_writes_nothing(graph: GraphBuilder) -> None:
    before = snapshot(graph.store, graph.space)
    report = consolidate(graph.store, graph.space, SETTINGS, dry_run=True)
    assert (report.superseded, report.merged_nodes) == (1, 1)
    assert snapshot(graph.store, graph.space) == before


def test_restatements_from_the_same_episode_are_not_merged(store: Store, space: str, minilm) -> None:
    graph = GraphBuilder(store, space, minilm)
    graph.episode("ep")
    graph.episodic("t1", "turn one", episode="ep", event_at=day("2024-01-01"))
    graph.episodic("t2", "turn two", episode="ep", event_at=day("2024-01-02"), seq=1)
    graph.semantic("a", "The wifi password is Hunter2", valid_from=day("2024-01-01"), tags=("wifi",), evidence=("t1",))
    graph.semantic("b", "the wifi password is Hunter2", valid_from=day("2024-01-02"), tags=("wifi",), evidence=("t2",))

    report = consolidate(store, space, SETTINGS)

    assert report.restatements == 1 and report.merged_nodes == 0
    assert report.skipped_reasons == {"shares_episode": 1}
    assert graph.node("a")["status"] == graph.node("b")["status"] == "active"


def test_different_subjects_are_not_a_conflict() -> None:
    from graphmem.pairs import CandidatePair, PairSide

    def side(id: str, text: str) -> PairSide:
        return PairSide(id, text, day("2024-01-01"), None, None, 1.0, ("tea",))

    rules = RuleClassifier()
    same_subject = CandidatePair(
        "Semantic", side("a", "The office is in Berlin"), side("b", "The office is in Munich"), 0.8, 1, False
    )
    other_subject = CandidatePair("Semantic", side("a", "Alice likes tea"), side("b", "Bob likes tea"), 0.8, 1, False)
    assert rules.classify_one(same_subject).label == "conflict"
    assert rules.classify_one(other_subject).label == "unrelated"
    two_places = CandidatePair(
        "Semantic",
        side("a", "The budget of project P1 is 100 EUR"),
        side("b", "The budget of project P2 is 200 EUR"),
        0.9,
        0,
        False,
    )
    assert rules.classify_one(two_places).label == "unrelated"
    negated = CandidatePair(
        "Semantic", side("a", "Single sign-on is enabled"), side("b", "Single sign-on is not enabled"), 0.9, 1, False
    )
    assert rules.classify_one(negated).label == "conflict"
    reworded = CandidatePair(
        "Semantic",
        side("a", "The rent is 900 EUR"),
        side("b", "The rent is now 950 EUR"),
        0.9,
        1,
        False,
    )
    assert rules.classify_one(reworded).label == "conflict"


def test_procedural_restatements_merge_with_their_routes(store: Store, space: str) -> None:
    from graphmem.embed.hashing import HashingEmbedder

    graph = GraphBuilder(store, space, HashingEmbedder(384))
    graph.procedural("p1", "restart the worker then clear the cache", valid_from=day("2024-01-01"))
    graph.procedural("p2", "clear the cache then restart the worker", valid_from=day("2024-02-01"))
    store.run_write_text(
        "MATCH (p:Procedural {id: $p1}) SET p.uses = 2, p.`return` = 0.5 "
        "WITH p MATCH (q:Procedural {id: $p2}) SET q.uses = 3, q.`return` = 0.9",
        p1=graph.qualify("p1"),
        p2=graph.qualify("p2"),
    )
    graph.subgoal("g1", "recover a stuck worker", procedures=("p1",))
    graph.subgoal("g2", "free memory", procedures=("p2",))

    report = consolidate(store, space, SETTINGS)

    assert (report.merged_nodes, report.merged, report.superseded) == (1, 2, 0)
    [row] = store.run_read_text(
        "MATCH (m:Procedural {space: $space, status: 'active'}) "
        "RETURN m.id AS id, m.text AS text, m.uses AS uses, m.`return` AS ret, m.valid_from AS vf, "
        "COLLECT { MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(m) RETURN g.id } AS routes",
        space=space,
    )
    assert row["text"] == "clear the cache then restart the worker"
    assert (row["uses"], row["ret"], row["vf"].to_native()) == (5, 0.9, day("2024-02-01"))
    assert sorted(row["routes"]) == [graph.qualify("g1"), graph.qualify("g2")]
    assert {graph.node(p, "Procedural")["status"] for p in ("p1", "p2")} == {"merged"}
