"""`forget`: the one real delete removes an episode and only what depended solely on it, with an audit record."""

from __future__ import annotations

import json

import pytest

from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.forget import forget
from graphmem.evolution.supersede import supersede
from graphmem.timeutil import FAR_FUTURE
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration


def _exists(graph: GraphBuilder, label: str, name: str) -> bool:
    query = f"MATCH (n:{label} {{id: $id, space: $space}}) RETURN count(n) AS c"  # label from the test, not input
    return graph.store.run_read_text(query, id=graph.qualify(name), space=graph.space)[0]["c"] == 1


@pytest.fixture
def graph(store: Store, space: str) -> GraphBuilder:
    graph = GraphBuilder(store, space, HashingEmbedder(384))
    graph.episode("ep1")
    graph.episode("ep2")
    graph.episodic("u1a", "I moved to Oslo", episode="ep1", event_at=day("2024-03-01"), author="ana")
    graph.episodic("u1b", "My manager is Bo", episode="ep1", event_at=day("2024-03-01"), author="ana", seq=1)
    graph.episodic("u2", "I live in Bergen and my manager is Bo", episode="ep2", event_at=day("2024-01-01"))
    graph.semantic(
        "old_city", "Ana lives in Bergen", valid_from=day("2024-01-01"), tags=("city", "ana"), evidence=("u2",)
    )
    graph.semantic(
        "new_city", "Ana lives in Oslo", valid_from=day("2024-03-01"), tags=("city", "oslo"), evidence=("u1a",)
    )
    graph.semantic(
        "manager", "Ana's manager is Bo", valid_from=day("2024-01-01"), tags=("manager",), evidence=("u1b", "u2")
    )
    graph.procedural("move_howto", "Update the address after moving", valid_from=day("2024-03-01"), evidence=("u1a",))
    graph.procedural("other_howto", "Ask the manager first", valid_from=day("2024-01-01"), evidence=("u2",))
    graph.subgoal("g_move", "relocate", procedures=("move_howto",))
    graph.subgoal("g_shared", "paperwork", procedures=("move_howto", "other_howto"))
    supersede(store, space, graph.qualify("new_city"), graph.qualify("old_city"), day("2024-03-01"), by="ana")
    graph.semantic("desk_a", "Ana's desk is on floor 3", valid_from=day("2024-01-01"), evidence=("u2",))
    graph.semantic("desk_b", "Ana's desk is on the 3rd floor", valid_from=day("2024-03-01"), evidence=("u1a",))
    graph.semantic("desk_m", "Ana's desk is on the 3rd floor", valid_from=day("2024-03-01"), evidence=("u2", "u1a"))
    store.run_write_text(  # desk_m merged desk_a (other episode) and desk_b (erased episode)
        "MATCH (m:Semantic {id: $m}) UNWIND $sources AS sid MATCH (s:Semantic {id: sid}) "
        "MERGE (m)-[r:MERGED_FROM]->(s) SET r.at = m.valid_from, r.recorded_at = m.recorded_at, "
        "s.status = 'merged', s.valid_to = m.valid_from",
        m=graph.qualify("desk_m"),
        sources=[graph.qualify("desk_a"), graph.qualify("desk_b")],
    )
    return graph


def test_forget_removes_only_what_depended_solely_on_the_episode(graph: GraphBuilder) -> None:
    report = forget(graph.store, graph.space, graph.qualify("ep1"), by="admin@acme")

    q = graph.qualify
    assert report.removed == {
        "Episode": [q("ep1")],
        "Episodic": sorted([q("u1a"), q("u1b")]),
        "Semantic": sorted([q("new_city"), q("desk_b"), q("desk_m")]),
        "Procedural": [q("move_howto")],
        "Tag": [f"{graph.space}:oslo"],
        "Subgoal": [q("g_move")],
    }
    for label, name in [
        ("Episode", "ep1"),
        ("Episodic", "u1a"),
        ("Episodic", "u1b"),
        ("Semantic", "new_city"),
        ("Procedural", "move_howto"),
        ("Subgoal", "g_move"),
    ]:
        assert not _exists(graph, label, name), f"{label} {name} should be gone"
    for label, name in [
        ("Episode", "ep2"),
        ("Episodic", "u2"),
        ("Semantic", "old_city"),
        ("Semantic", "manager"),
        ("Procedural", "other_howto"),
        ("Subgoal", "g_shared"),
    ]:
        assert _exists(graph, label, name), f"{label} {name} should stay"
    assert graph.counts()["Tag"] == 3  # city, ana, manager stay; oslo tagged only the erased fact

    evidence = graph.store.run_read_text(
        "MATCH (:Semantic {id: $id})-[:EVIDENCED_BY]->(e) RETURN e.id AS e", id=q("manager")
    )
    assert [r["e"] for r in evidence] == [q("u2")]
    reopened = graph.node("old_city")  # what the erased fact had superseded holds again
    assert (reopened["status"], reopened["valid_to"]) == ("active", FAR_FUTURE)
    assert report.reopened == tuple(sorted([q("old_city"), q("desk_a")]))
    # the merged node carried the erased wording, so it goes; its surviving source holds again
    survivor = graph.node("desk_a")
    assert (survivor["status"], survivor["valid_to"]) == ("active", FAR_FUTURE)

    [audit] = graph.store.run_read_text(
        "MATCH (a:AuditRecord {id: $id, space: $space}) RETURN a.action AS action, a.by AS by, a.target AS target, "
        "a.removed AS removed, a.removed_counts AS counts, a.at AS at",
        id=report.audit_id,
        space=graph.space,
    )
    assert (audit["action"], audit["by"], audit["target"]) == ("forget", "admin@acme", q("ep1"))
    assert report.state == "completed" and report.target_kind == "id"
    assert json.loads(audit["removed"]) == report.removed
    assert json.loads(audit["counts"]) == {
        "Episode": 1,
        "Episodic": 2,
        "Semantic": 3,
        "Procedural": 1,
        "Tag": 1,
        "Subgoal": 1,
    }


def test_forget_an_unknown_episode_writes_nothing(graph: GraphBuilder) -> None:
    with pytest.raises(NotFound) as err:
        forget(graph.store, graph.space, "ep_missing", by="admin")
    assert err.value.field == "id"
    with pytest.raises(NotFound):  # another space's episode is out of reach
        forget(graph.store, graph.space + "-other", graph.qualify("ep1"), by="admin")
    with pytest.raises(InvalidInput) as no_by:
        forget(graph.store, graph.space, graph.qualify("ep1"), by=" ")
    assert no_by.value.field == "by"
    assert _exists(graph, "Episode", "ep1")
    audits = graph.store.run_read_text("MATCH (a:AuditRecord {space: $space}) RETURN count(a) AS c", space=graph.space)
    assert audits[0]["c"] == 0
