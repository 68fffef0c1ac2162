"""Provenance as of two dates, index-backed query plans, the `graphmem recall` command and reasoning."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from graphmem.config import Settings
from graphmem.db.queries import load_query
from graphmem.memory_graph import MemoryGraph
from graphmem.timeutil import utc_now
from tests.support.graph_builder import GraphBuilder, at

pytestmark = pytest.mark.integration


@pytest.fixture
def graph(store, minilm) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings())


@pytest.fixture
def build(store, minilm, space) -> GraphBuilder:
    return GraphBuilder(store, minilm, space)


def test_provenance_chain_as_of_two_dates(graph, build, space):
    episode = build.episode(goal="quarterly review", session_id="q1-review", started_at=at("2022-01-10"))
    said_old = build.episodic("Alice said the budget is 10k", episode_id=episode, seq=0, author="alice",
                              event_at=at("2022-01-10"))  # fmt: skip
    episode2 = build.episode(goal="budget update", session_id="q3-update", started_at=at("2023-07-01"))
    said_new = build.episodic("Bob said the budget is now 15k", episode_id=episode2, seq=0, author="bob",
                              event_at=at("2023-07-01"))  # fmt: skip
    old = build.semantic("The project budget is 10k", valid_from=at("2022-01-10"))
    new = build.semantic("The project budget is 15k", valid_from=at("2023-07-01"))
    build.evidenced_by(old, said_old)
    build.evidenced_by(new, said_new)
    build.supersede(new, old, at("2023-07-01"), reason="budget raised")
    merged_source = build.semantic("Budget owner is Carol", valid_from=at("2022-01-10"))
    merged = build.semantic("Carol owns the project budget", valid_from=at("2024-01-01"))
    build.merge(merged, merged_source, at("2024-01-01"))

    before = graph.provenance(old, space, as_of="2022-06-01T00:00:00Z")
    assert before.version_at == old
    assert before.superseded_by == [] and before.lineage == []
    assert [(e.id, e.author, e.episode_id, e.session_id) for e in before.evidence] == [
        (said_old, "alice", episode, "q1-review")
    ]

    after = graph.provenance(old, space, as_of="2024-01-01T00:00:00Z")
    assert after.version_at == new
    assert after.superseded_by == [new]
    assert [(e.type, e.source_id, e.target_id, e.reason) for e in after.lineage] == [
        ("SUPERSEDES", new, old, "budget raised")
    ]

    newer = graph.provenance(new, space)
    assert newer.supersedes == [old] and newer.evidence[0].session_id == "q3-update"
    assert graph.provenance(new, space, as_of="2023-01-01T00:00:00Z").supersedes == []

    assert graph.provenance(merged, space).merged_from == [merged_source]
    assert graph.provenance(merged_source, space, as_of="2023-01-01T00:00:00Z").merged_into == []


def test_procedure_provenance_reaches_its_episode(graph, build, space):
    episode = build.episode(goal="book a venue", kind="trajectory", started_at=at("2024-01-05"))
    step = build.episodic("search 'quiet venues' -> found Hall B", episode_id=episode, seq=0, kind="step",
                          event_at=at("2024-01-05"))  # fmt: skip
    procedure = build.procedural("Search for quiet venues first", subgoal_id=build.subgoal("find a venue"))
    build.evidenced_by(procedure, step, label="Procedural")
    chain = graph.provenance(procedure, space)
    assert chain.kind == "procedural"
    assert [(e.id, e.episode_id, e.episode_goal) for e in chain.evidence] == [(step, episode, "book a venue")]


def _operators(plan) -> list[str]:
    found = [plan["operatorType"].split("@")[0]]
    for child in plan.get("children", []):
        found.extend(_operators(child))
    return found


def test_vector_and_fulltext_legs_use_their_indexes(store):
    params = {
        "vector": [1.0] + [0.0] * 383,
        "space": "plan-check",
        "statuses": ["active"],
        "as_of": utc_now(),
        "known_at": utc_now(),
        "k": 10,
        "fetch": 40,
        "query": "budget",
        "subgoals": 5,
        "kinds": ["semantic", "episodic", "procedural"],
    }
    _, summary, _ = store.driver.execute_query("EXPLAIN " + load_query("read/vector_units"), params)
    ops = _operators(summary.plan)
    assert ops.count("NodeVectorIndexSearch") == 3, ops  # one per kind
    assert not {"NodeByLabelScan", "AllNodesScan"} & set(ops), ops
    params["queries"] = dict.fromkeys(params["kinds"], "budget")
    _, summary, _ = store.driver.execute_query("EXPLAIN " + load_query("read/fulltext_units"), params)
    ops = _operators(summary.plan)
    assert ops.count("ProcedureCall") == 3 and not {"NodeByLabelScan", "AllNodesScan"} & set(ops), ops
    params["terms"] = {kind: [{"term": "budget", "query": "budget"}] for kind in params["kinds"]}
    params["cap"] = 500
    _, summary, _ = store.driver.execute_query("EXPLAIN " + load_query("read/lexical_stats"), params)
    ops = _operators(summary.plan)
    assert ops.count("ProcedureCall") == 3 and not {"NodeByLabelScan", "AllNodesScan"} & set(ops), ops
    params["rows"] = [{"id": "x", "kind": "semantic", "score": 1.0}]
    _, summary, _ = store.driver.execute_query("EXPLAIN " + load_query("read/lexical_units"), params)
    assert not {"NodeByLabelScan", "AllNodesScan"} & set(_operators(summary.plan))
    params.update(kind="semantic", sample=10)
    _, summary, _ = store.driver.execute_query("EXPLAIN " + load_query("read/lexical_profile"), params)
    assert not {"NodeByLabelScan", "AllNodesScan"} & set(_operators(summary.plan))
    _, summary, _ = store.driver.execute_query("EXPLAIN " + load_query("read/subgoal_route"), params)
    ops = _operators(summary.plan)
    assert "NodeVectorIndexSearch" in ops and "NodeByLabelScan" not in ops, ops


def test_recall_command_on_ingested_documents(neo4j_server, space, tmp_path):
    records = [
        {"id": f"{space}-d1", "space": space, "text": "The Lyon warehouse ships orders every Tuesday.",
         "author": "Dana", "event_at": "2024-03-05T10:00:00Z"},
        {"id": f"{space}-d2", "space": space, "text": "The cafeteria menu changes on Mondays.",
         "author": "Eli", "event_at": "2024-03-06T10:00:00Z"},
    ]  # fmt: skip
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    env = {
        **os.environ,
        "NEO4J_URI": neo4j_server.uri,
        "NEO4J_USER": neo4j_server.user,
        "NEO4J_PASSWORD": neo4j_server.password,
    }
    cli = [sys.executable, "-m", "graphmem.cli"]
    ingest = subprocess.run([*cli, "ingest", "documents", str(docs), "--space", space, "--no-progress"],
                            env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert ingest.returncode == 0, ingest.stderr
    out = subprocess.run([*cli, "recall", "When does the Lyon warehouse ship orders?", "--space", space,
                          "--k", "3"], env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    top = result["hits"][0]
    assert "Lyon warehouse" in top["text"]
    assert top["author"] == "Dana" and top["event_at"].startswith("2024-03-05")
    assert {"id", "kind", "score", "signals", "event_at"} <= set(top)
    assert "vector" in top["signals"] and "lexical" in top["signals"]

    bad = subprocess.run([*cli, "recall", "x", "--space", space, "--as-of", "yesterday"], env=env,
                         capture_output=True, text=True, timeout=600)  # fmt: skip
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines()[-1].startswith("graphmem: error: as_of:")


def test_retrieve_and_reason_extractive_without_llm(graph, build, space, minilm):
    build.semantic("The Lyon warehouse ships orders every Tuesday.", author="dana")
    build.semantic("The cafeteria menu changes on Mondays.", author="eli")
    reasoned = graph.retrieve_and_reason("ship an order from Lyon", space, subgoal="find the shipping day",
                                         token_budget=30)  # fmt: skip
    assert not reasoned.used_llm
    assert "Tuesday" in reasoned.guidance
    assert 0 < reasoned.memory_tokens <= 30
    assert reasoned.memory_tokens == minilm.count_tokens(reasoned.guidance)


def test_retrieve_and_reason_uses_the_llm_when_configured(store, minilm, build, space):
    from tests.support.fake_openai import FakeOpenAI, json_reply

    build.semantic("The Lyon warehouse ships orders every Tuesday.", author="dana")
    plan = {"tags": ["Lyon warehouse"], "next_subgoal": "find the shipping day", "mode": "## Semantic"}
    script = [json_reply(plan), json_reply({"guidance": "Ship on Tuesday from Lyon."})]
    with FakeOpenAI(script) as server:
        settings = Settings(GRAPHMEM_LLM_BASE_URL=server.base_url, GRAPHMEM_LLM_MODEL="fake-model")
        graph = MemoryGraph(store, minilm, settings)
        reasoned = graph.retrieve_and_reason("ship an order from Lyon", space)
        assert reasoned.recall.plan.mode == "semantic"  # the '##' prefix PlugMem choked on is parsed
        assert reasoned.recall.plan.tags == ["Lyon warehouse"]
        assert reasoned.used_llm and reasoned.guidance == "Ship on Tuesday from Lyon."
        assert reasoned.memory_tokens == minilm.count_tokens("Ship on Tuesday from Lyon.")
        assert "Tuesday" in json.dumps(server.requests[-1])  # the evidence reached the model


def test_llm_failure_falls_back_to_extractive(store, minilm, build, space):
    from tests.support.fake_openai import FakeOpenAI, Reply

    build.semantic("The Lyon warehouse ships orders every Tuesday.", author="dana")
    with FakeOpenAI([Reply(status=500)]) as server:
        settings = Settings(
            GRAPHMEM_LLM_BASE_URL=server.base_url, GRAPHMEM_LLM_MODEL="fake-model", GRAPHMEM_LLM_MAX_RETRIES=0
        )
        reasoned = MemoryGraph(store, minilm, settings).retrieve_and_reason("ship an order from Lyon", space)
    assert not reasoned.used_llm and "Tuesday" in reasoned.guidance


def test_multi_hop_follows_bridge_tags(graph, build, space):
    alice, acme, lyon = build.tag("Alice Smith"), build.tag("Acme Corp"), build.tag("Lyon")
    works = build.semantic("Alice Smith works at Acme Corp", tags=[alice, acme])
    for hobby in ("likes tennis", "lives near the park", "has two cats", "studied in Oxford"):
        build.semantic(f"Alice Smith {hobby}", tags=[alice])
    based = build.semantic("Acme Corp is based in Lyon", tags=[acme, lyon])
    question = "Which city is Alice Smith's employer in?"
    one = graph.recall(question, space, mode="semantic", k=4)
    two = graph.recall(question, space, mode="semantic", k=4, hops=2)
    assert works in [h.id for h in one.hits] and based not in [h.id for h in one.hits]
    assert works in [h.id for h in two.hits]
    hop = next(h for h in two.hits if h.id == based)  # the bridge tag "Acme Corp" found the second hop
    assert hop.signals["tagvote@2"].rank == 1


def test_evidence_units_as_of_never_cite_later_documents(graph, build, space):
    early = build.episodic("Memo: Payments is led by Priya", kind="document", event_at=at("2022-01-01"))
    late = build.episodic("Memo again: Payments is led by Priya", kind="document", event_at=at("2024-01-01"))
    fact = build.semantic("Payments is led by Priya", valid_from=at("2022-01-01"))
    build.evidenced_by(fact, early)
    build.evidenced_by(fact, late)  # the same fact restated later: one node, two pieces of evidence
    then = graph.evidence_units([fact], space, as_of="2023-01-01T00:00:00Z")
    assert [u.id for u in then[fact]] == [early]
    assert [u.id for u in graph.evidence_units([fact], space)[fact]] == [early, late]
