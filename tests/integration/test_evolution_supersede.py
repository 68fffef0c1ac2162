"""Explicit supersession against a real Neo4j: dated links, closed validity, clear refusals."""

from __future__ import annotations

import pytest

from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import Conflict, InvalidInput, NotFound
from graphmem.evolution.supersede import apply_supersessions, supersede
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration


@pytest.fixture
def graph(store, space) -> GraphBuilder:
    return GraphBuilder(store, space, HashingEmbedder(384))


def _edges(graph: GraphBuilder) -> list[dict]:
    return graph.store.run_read_text(
        "MATCH (n:Semantic {space: $space})-[r:SUPERSEDES]->(o:Semantic) "
        "RETURN n.id AS new, o.id AS old, r.at AS at, r.kind AS kind, r.reason AS reason, r.by AS by",
        space=graph.space,
    )


def test_supersede_links_closes_validity_and_keeps_the_old_text(graph: GraphBuilder) -> None:
    old = graph.semantic("v1", "The office is in Berlin", valid_from=day("2024-01-01"), tags=("office",))
    new = graph.semantic("v2", "The office is in Munich", valid_from=day("2024-06-01"), tags=("office",))

    created = supersede(graph.store, graph.space, new, old, "2024-06-01T00:00:00Z", reason="moved", by="ana")

    assert created == 1
    props = graph.node(old)
    assert props["status"] == "superseded"
    assert props["valid_to"] == day("2024-06-01")
    assert props["text"] == "The office is in Berlin"
    assert graph.counts()["Tag"] == 1  # the old version keeps its tag edge
    assert (
        graph.store.run_read_text("MATCH (:Tag)-[:TAGS]->(n:Semantic {id: $id}) RETURN count(*) AS c", id=old)[0]["c"]
        == 1
    )
    [edge] = _edges(graph)
    assert (edge["new"], edge["old"], edge["kind"], edge["reason"], edge["by"]) == (
        new,
        old,
        "explicit",
        "moved",
        "ana",
    )
    assert graph.node(new)["status"] == "active"


def test_supersede_twice_changes_nothing(graph: GraphBuilder) -> None:
    old = graph.semantic("v1", "Price is 10 EUR", valid_from=day("2024-01-01"))
    new = graph.semantic("v2", "Price is 12 EUR", valid_from=day("2024-03-01"))
    assert supersede(graph.store, graph.space, new, old, day("2024-03-01")) == 1
    before = graph.node(old)
    assert supersede(graph.store, graph.space, new, old, day("2024-03-01")) == 0
    assert graph.node(old) == before
    assert len(_edges(graph)) == 1


def test_supersede_rejects_a_cycle(graph: GraphBuilder) -> None:
    a = graph.semantic("a", "Owner is Ana", valid_from=day("2024-01-01"))
    b = graph.semantic("b", "Owner is Bo", valid_from=day("2024-02-01"))
    c = graph.semantic("c", "Owner is Cy", valid_from=day("2024-03-01"))
    supersede(graph.store, graph.space, b, a, day("2024-02-01"))
    supersede(graph.store, graph.space, c, b, day("2024-03-01"))

    with pytest.raises(Conflict, match="cycle") as err:
        supersede(graph.store, graph.space, a, c, day("2024-04-01"))
    assert err.value.field == "new_id"
    with pytest.raises(Conflict, match="itself"):
        supersede(graph.store, graph.space, a, a, day("2024-04-01"))
    assert len(_edges(graph)) == 2
    assert graph.node(c)["status"] == "active"


def test_a_cycle_inside_one_batch_writes_nothing(graph: GraphBuilder) -> None:
    a = graph.semantic("a", "Owner is Ana", valid_from=day("2024-01-01"))
    b = graph.semantic("b", "Owner is Bo", valid_from=day("2024-01-01"))
    rows = [
        {"new_id": b, "old_id": a, "at": day("2024-02-01"), "reason": None, "by": None, "kind": "document"},
        {"new_id": a, "old_id": b, "at": day("2024-03-01"), "reason": None, "by": None, "kind": "document"},
    ]
    with pytest.raises(Conflict, match=r"cycle") as err:
        graph.store.write_transaction(lambda tx: apply_supersessions(graph.store, tx, graph.space, rows))
    assert err.value.field.startswith("rows[")
    assert _edges(graph) == []
    assert graph.node(a)["status"] == "active"


def test_supersede_rejects_cross_space_links(graph: GraphBuilder, store, space) -> None:
    mine = graph.semantic("mine", "Budget is 5k", valid_from=day("2024-01-01"))
    other = GraphBuilder(store, space + "-other", HashingEmbedder(384))
    theirs = other.semantic("theirs", "Budget is 9k", valid_from=day("2024-01-01"))

    with pytest.raises(NotFound, match="within one space") as err:
        supersede(store, space, mine, theirs, day("2024-02-01"))
    assert err.value.field == "old_id"
    assert other.node(theirs)["status"] == "active"


def test_supersede_rejects_at_before_the_old_version_began(graph: GraphBuilder) -> None:
    old = graph.semantic("v1", "Lead is Ana", valid_from=day("2024-05-01"))
    new = graph.semantic("v2", "Lead is Bo", valid_from=day("2024-06-01"))
    with pytest.raises(InvalidInput, match="before the old version began") as err:
        supersede(graph.store, graph.space, new, old, day("2024-04-30"))
    assert err.value.field == "at"
    with pytest.raises(InvalidInput) as bad:
        supersede(graph.store, graph.space, new, old, "last tuesday")
    assert bad.value.field == "at"
    assert graph.node(old)["status"] == "active"


def test_supersede_needs_the_same_label(graph: GraphBuilder) -> None:
    fact = graph.semantic("f", "Deploys happen on Fridays", valid_from=day("2024-01-01"))
    how = graph.procedural("p", "Deploy with the blue-green script", valid_from=day("2024-01-01"))
    with pytest.raises(InvalidInput, match="Procedural can only supersede a Procedural") as err:
        supersede(graph.store, graph.space, how, fact, day("2024-02-01"))
    assert err.value.field == "old_id"
    with pytest.raises(NotFound) as missing:
        supersede(graph.store, graph.space, "nope", fact, day("2024-02-01"))
    assert missing.value.field == "new_id"


def test_supersede_works_for_procedural_and_episodic(graph: GraphBuilder) -> None:
    graph.episode("s1")
    e1 = graph.episodic("d1", "Policy v1", episode="s1", event_at=day("2024-01-01"))
    e2 = graph.episodic("d2", "Policy v2", episode="s1", event_at=day("2024-02-01"))
    p1 = graph.procedural("p1", "Restart the worker", valid_from=day("2024-01-01"))
    p2 = graph.procedural("p2", "Restart the worker with --drain", valid_from=day("2024-02-01"))
    assert supersede(graph.store, graph.space, e2, e1, day("2024-02-01"), kind="document") == 1
    assert supersede(graph.store, graph.space, p2, p1, day("2024-02-01")) == 1
    assert graph.node(e1, "Episodic")["status"] == "superseded"
    assert graph.node(p1, "Procedural")["valid_to"] == day("2024-02-01")


def test_memory_graph_exposes_the_time_operations(graph: GraphBuilder) -> None:
    from graphmem.config import Settings
    from graphmem.memory_graph import MemoryGraph

    memory = MemoryGraph(graph.store, HashingEmbedder(384), Settings(GRAPHMEM_CONSOLIDATE_CLASSIFIER="rules"))
    old = graph.semantic("v1", "The lead is Ana", valid_from=day("2024-01-01"), author="ana")
    new = graph.semantic("v2", "The lead is Bo", valid_from=day("2024-02-01"), author="bo")
    assert memory.supersede(graph.space, new, old, "2024-02-01T00:00:00Z", reason="rotation", by="hr") == 1
    chain = memory.history(graph.space, new)
    assert [(v.author, v.status) for v in chain.versions] == [("ana", "superseded"), ("bo", "active")]
    assert [c.change for c in memory.changes(graph.space, "2024-02-01", "2024-02-02")] == ["added", "superseded"]
    assert memory.consolidate(graph.space).superseded == 0  # already linked: nothing more to do


def test_superseding_a_document_retires_the_facts_that_rest_on_it_alone(store, space) -> None:
    from graphmem.config import Settings
    from graphmem.write.documents import ingest_documents

    embedder = HashingEmbedder(384)
    settings = Settings()
    old_doc = {
        "id": f"{space}-policy-v1",
        "text": "The Berlin office approves travel budgets up to 5000 EUR.",
        "author": "ana",
        "event_at": "2024-01-10T09:00:00Z",
    }
    new_doc = {
        "id": f"{space}-policy-v2",
        "text": "The Berlin office approves travel budgets up to 8000 EUR.",
        "author": "ben",
        "event_at": "2024-05-02T09:00:00Z",
        "supersedes": [f"{space}-policy-v1"],
    }
    ingest_documents(store, embedder, settings, space, [old_doc], strict=True)
    ingest_documents(store, embedder, settings, space, [new_doc], strict=True)
    facts = store.run_read_text(
        "MATCH (f:Semantic {space: $space})-[:EVIDENCED_BY]->(d:Episodic) "
        "RETURN d.id AS doc, f.status AS status, f.valid_to AS valid_to",
        space=space,
    )
    old_facts = [f for f in facts if f["doc"] == old_doc["id"]]
    new_facts = [f for f in facts if f["doc"] == new_doc["id"]]
    assert old_facts and new_facts
    assert all(f["status"] == "superseded" for f in old_facts)
    assert all(f["valid_to"].to_native().isoformat().startswith("2024-05-02") for f in old_facts)
    assert all(f["status"] == "active" for f in new_facts)
