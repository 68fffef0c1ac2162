"""The evolution commands as a user runs them: JSON out, one-line errors, forget needs --yes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration


@pytest.fixture
def run(neo4j_server):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHMEM_"))}
    env.update(
        NEO4J_URI=neo4j_server.uri,
        NEO4J_USER=neo4j_server.user,
        NEO4J_PASSWORD=neo4j_server.password,
        GRAPHMEM_CONSOLIDATE_CLASSIFIER="rules",
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "graphmem.cli", *args], capture_output=True, text=True, env=env, timeout=120
        )

    return run


def test_supersede_history_changes_consolidate_forget(run, store: Store, space: str) -> None:
    graph = GraphBuilder(store, space, HashingEmbedder(384))
    graph.episode("ep")
    graph.episodic("turn", "the plan", episode="ep", event_at=day("2024-01-01"))
    old = graph.semantic("v1", "The plan is A", valid_from=day("2024-01-01"), evidence=("turn",))
    new = graph.semantic("v2", "The plan is B", valid_from=day("2024-02-01"))

    done = run(
        "supersede",
        "--space",
        space,
        "--new",
        new,
        "--old",
        old,
        "--at",
        "2024-02-01T00:00:00Z",
        "--reason",
        "replanned",
        "--by",
        "ana",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["created"] == 1

    cycle = run("supersede", "--space", space, "--new", old, "--old", new, "--at", "2024-03-01T00:00:00Z")
    assert cycle.returncode == 1
    assert cycle.stderr.startswith("graphmem: error: new_id:") and "cycle" in cycle.stderr
    assert len(cycle.stderr.strip().splitlines()) == 1

    chain = json.loads(run("history", old, "--space", space).stdout)
    assert [v["text"] for v in chain["versions"]] == ["The plan is A", "The plan is B"]
    assert [(link["by"], link["reason"]) for link in chain["links"]] == [("ana", "replanned")]

    listed = run("changes", "--space", space, "--since", "2024-01-15", "--until", "2024-03-01")
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(r["change"], r["id"]) for r in rows] == [("added", new), ("superseded", new)]

    report = run("consolidate", "--space", space)
    assert report.returncode == 0, report.stderr
    last = json.loads(report.stdout.strip().splitlines()[-1])
    assert last["space"] == space and last["classifier"] == "rules" and "pairs_seen" in last

    refused = run("forget", "--space", space, "--episode", graph.qualify("ep"))
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert graph.counts()["Episode"] == 1
    erased = run("forget", "--space", space, "--episode", graph.qualify("ep"), "--yes", "--by", "admin")
    assert erased.returncode == 0, erased.stderr
    assert json.loads(erased.stdout)["removed_counts"]["Semantic"] == 1
    assert graph.counts()["Episode"] == 0


def test_forget_erases_a_document_by_id_and_an_authors_records(run, store: Store, space: str) -> None:
    from graphmem.config import Settings
    from graphmem.memory_graph import MemoryGraph

    memory = MemoryGraph(store, HashingEmbedder(384), Settings())
    doc, kept, hers = memory.ingest_documents(space, [
        {"text": "The alarm code for the depot is 4417.", "author": "ana", "event_at": "2024-01-02T09:00:00Z"},
        {"text": "The depot opens at seven.", "author": "bo", "event_at": "2024-01-03T09:00:00Z"},
        {"text": "Ana's phone number is 555 0199.", "author": "ana", "event_at": "2024-01-04T09:00:00Z"},
    ], strict=True).ids  # fmt: skip

    erased = run("forget", "--space", space, "--id", str(doc), "--reason", "leaked code", "--yes", "--by", "admin")
    assert erased.returncode == 0, erased.stderr
    out = json.loads(erased.stdout)
    assert (out["target_kind"], out["reason"], out["state"]) == ("id", "leaked code", "completed")
    assert out["removed"]["Episodic"] == [doc] and out["removed_counts"]["Episodic"] == 1

    by_author = run("forget", "--space", space, "--author", "ana", "--batch-size", "1", "--yes")
    assert by_author.returncode == 0, by_author.stderr
    assert json.loads(by_author.stdout)["removed"]["Episodic"] == [hers]
    left = store.run_read_text("MATCH (u:Episodic {space: $space}) RETURN u.id AS id", space=space)
    assert [r["id"] for r in left] == [kept]

    both = run("forget", "--space", space, "--id", str(kept), "--all", "--yes")
    assert both.returncode == 2 and "not allowed with" in both.stderr
