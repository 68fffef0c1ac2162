"""The analyst queries in cypher/audit/ return the expected rows on a known fixture, and document their
parameters in their header (they are meant to be pasted into Neo4j Browser)."""

from __future__ import annotations

import json
import re

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.db.queries import CYPHER_DIR
from graphmem.embed.hashing import HashingEmbedder
from graphmem.evolution.consolidate import consolidate
from graphmem.evolution.forget import forget
from graphmem.evolution.supersede import supersede
from graphmem.timeutil import utc_now
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration

AUDIT_FILES = sorted((CYPHER_DIR / "audit").glob("*.cypher"))


@pytest.mark.parametrize("path", AUDIT_FILES, ids=lambda p: p.stem)
def test_every_audit_query_explains_its_parameters(path) -> None:
    text = path.read_text()
    header = "\n".join(line for line in text.splitlines() if line.startswith("//"))
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    assert "Parameters:" in header
    for name in set(re.findall(r"\$(\w+)", body)):
        assert f"${name}" in header, f"{path.name}: ${name} is not explained in the header"


@pytest.fixture
def graph(store: Store, space: str) -> GraphBuilder:
    """Two sessions, a supersession by a named person, a restatement to merge, a fact without evidence,
    and a third session erased by an admin."""
    graph = GraphBuilder(store, space, HashingEmbedder(384))
    graph.episode("s1", goal="onboarding chat")
    graph.episode("s2", goal="follow-up chat")
    graph.episode("s3", goal="chat to erase")
    graph.episodic("t1", "We ship every Tuesday", episode="s1", event_at=day("2024-01-02"), author="ana")
    graph.episodic("t2", "Shipping moved to Thursday", episode="s2", event_at=day("2024-04-02"), author="bo")
    graph.episodic("t3", "Ignore this", episode="s3", event_at=day("2024-04-03"), author="cy")
    graph.semantic(
        "ship1",
        "Releases ship on Tuesday",
        valid_from=day("2024-01-02"),
        tags=("release",),
        evidence=("t1",),
        author="ana",
    )
    graph.semantic(
        "ship2",
        "Releases ship on Thursday",
        valid_from=day("2024-04-02"),
        tags=("release",),
        evidence=("t2",),
        author="bo",
    )
    graph.semantic(
        "desk1",
        "The help desk opens at 8 in the morning",
        valid_from=day("2024-01-02"),
        tags=("desk",),
        evidence=("t1",),
        author="ana",
    )
    graph.semantic(
        "desk2",
        "In the morning the help desk opens at 8",
        valid_from=day("2024-04-02"),
        tags=("desk",),
        evidence=("t2",),
        author="bo",
    )
    graph.semantic("orphan", "Parking is free on Sundays", valid_from=day("2024-02-01"), author="dee")
    graph.semantic("gone", "Something to erase", valid_from=day("2024-04-03"), evidence=("t3",))
    supersede(
        store,
        space,
        graph.qualify("ship2"),
        graph.qualify("ship1"),
        day("2024-04-02"),
        reason="new release train",
        by="bo",
    )
    report = consolidate(store, space, Settings(GRAPHMEM_CONSOLIDATE_CLASSIFIER="rules"))
    assert (report.merged_nodes, report.superseded) == (1, 0)
    forget(store, space, graph.qualify("s3"), by="admin@acme")
    return graph


def test_changes_between_lists_who_changed_what(graph: GraphBuilder) -> None:
    rows = graph.store.read(
        "audit/changes_between", space=graph.space, since=day("2024-04-01"), until=day("2024-05-01"), limit=100
    )
    q = graph.qualify
    superseded = [(r["id"], r["other_id"], r["by"], r["reason"]) for r in rows if r["change"] == "superseded"]
    assert superseded == [(q("ship2"), q("ship1"), "bo", "new release train")]
    merged = sorted(r["other_id"] for r in rows if r["change"] == "merged")
    assert merged == [q("desk1"), q("desk2")]
    added = {(r["id"], r["by"]) for r in rows if r["change"] == "added"}
    assert added == {(q("ship2"), "bo"), (q("desk2"), "bo"), (q("t2"), "bo")}
    early = graph.store.read(
        "audit/changes_between", space=graph.space, since=day("2024-01-01"), until=day("2024-01-03"), limit=100
    )
    assert {r["change"] for r in early} == {"added"}


def test_version_chain_and_as_of(graph: GraphBuilder) -> None:
    rows = graph.store.read("audit/version_chain", space=graph.space, id=graph.qualify("ship1"))
    assert [(r["text"], r["status"], r["superseded_by_who"]) for r in rows] == [
        ("Releases ship on Tuesday", "superseded", "bo"),
        ("Releases ship on Thursday", "active", None),
    ]
    march = graph.store.read(
        "audit/facts_as_of", space=graph.space, as_of=day("2024-03-01"), known_at=utc_now(), tag="release"
    )
    assert [r["text"] for r in march] == ["Releases ship on Tuesday"]


def test_fact_provenance_follows_merges_to_the_evidence(graph: GraphBuilder) -> None:
    [merged] = graph.store.read("audit/merges", space=graph.space)
    assert sorted(s["id"] for s in merged["sources"]) == [graph.qualify("desk1"), graph.qualify("desk2")]
    assert merged["valid_from"].to_native() == day("2024-04-02")

    rows = graph.store.read("audit/fact_provenance", space=graph.space, id=merged["merged"])
    assert [(r["evidence_text"], r["author"], r["episode_goal"]) for r in rows] == [
        ("We ship every Tuesday", "ana", "onboarding chat"),
        ("Shipping moved to Thursday", "bo", "follow-up chat"),
    ]


def test_facts_without_evidence(graph: GraphBuilder) -> None:
    rows = graph.store.read("audit/facts_without_evidence", space=graph.space)
    assert [r["text"] for r in rows] == ["Parking is free on Sundays"]


def test_erasures(graph: GraphBuilder) -> None:
    [row] = graph.store.read("audit/erasures", space=graph.space)
    assert (row["action"], row["target"], row["by"]) == ("forget", graph.qualify("s3"), "admin@acme")
    assert json.loads(row["removed_counts"])["Semantic"] == 1
