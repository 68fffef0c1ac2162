"""`graphmem bench quality` end to end on tiny files in each dataset's format (`--limit 1`), against the
real Neo4j and the default embedder, so the harness cannot rot. The full runs live in bench/RESULTS.md."""

from __future__ import annotations

import hashlib
import json
import uuid
from pathlib import Path

import pytest

from graphmem.cli import main
from graphmem.config import get_settings
from tests.support.bench_fixtures import write_fixture

pytestmark = pytest.mark.integration

HEADLINE = {
    "longmemeval": "recall_any@10",
    "locomo": "recall@10",
    "hotpotqa": "recall@10",
    "musique": "recall@10",
    "versioned": "recall@10",
}


def _run_nodes(store, dataset: str, run_id: str) -> list[dict]:  # type: ignore[no-untyped-def]
    prefix = f"bench-{dataset}-{run_id}-"
    return store.run_read_text(
        "MATCH (n:Episodic|Episode|Semantic|Tag) WHERE n.space STARTS WITH $prefix "
        "RETURN labels(n)[0] AS label, n.session_id AS session_id, n.id AS id",
        prefix=prefix,
    )


@pytest.mark.parametrize("dataset", list(HEADLINE))
def test_bench_quality_runs_each_dataset_and_cleans_up(
    cli_env, tmp_path: Path, dataset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_fixture(dataset, tmp_path)
    out = tmp_path / "result.json"
    run_id = uuid.uuid4().hex[:8]
    code = main(
        ["bench", "quality", "--dataset", dataset, "--data", str(data), "--limit", "1", "--out", str(out),
         "--run-id", run_id]
    )  # fmt: skip
    assert code == 0
    result = json.loads(out.read_text())
    assert result["dataset"] == dataset
    assert result["data_sha256"] == hashlib.sha256(data.read_bytes()).hexdigest()
    assert result["machine"]["cpus"] >= 1 and result["started_at"]
    assert result["command"].startswith(f"graphmem bench quality --dataset {dataset} ")
    expected = {"vector", "bm25", "tagvote", "plugmem", "hybrid"} | (
        {"hybrid+asof"} if dataset == "versioned" else set()
    )
    assert set(result["variants"]) == expected
    for name, variant in result["variants"].items():
        assert variant["n"] == 1, name
        assert "by_type" in variant and "evidence_tokens@5" in variant
    # the fixtures' haystacks are smaller than 10 units: any correct wiring finds the gold by rank 10
    assert result["variants"]["hybrid"][HEADLINE[dataset]] == 1.0
    assert result["variants"]["vector"][HEADLINE[dataset]] == 1.0
    assert "| hybrid" in capsys.readouterr().out
    assert _run_nodes(cli_env, dataset, run_id) == []  # the run's spaces were dropped


def test_longmemeval_session_ids_reach_the_graph_renamed(cli_env, tmp_path: Path) -> None:
    data = write_fixture("longmemeval", tmp_path)
    run_id = uuid.uuid4().hex[:8]
    code = main(
        ["bench", "quality", "--dataset", "longmemeval", "--data", str(data), "--limit", "1", "--variants",
         "vector", "--keep", "--run-id", run_id]
    )  # fmt: skip
    assert code == 0
    try:
        nodes = _run_nodes(cli_env, "longmemeval", run_id)
        sessions = [n["session_id"] for n in nodes if n["label"] == "Episode"]
        assert len(sessions) == 4  # the repeated session is stored twice, the empty one not at all
        assert not any("answer" in (s or "") or "sharegpt" in (s or "") for s in sessions)
    finally:
        for row in cli_env.run_read_text(
            "MATCH (n:Episode) WHERE n.space STARTS WITH $p RETURN DISTINCT n.space AS space",
            p=f"bench-longmemeval-{run_id}-",
        ):
            while cli_env.write("bench/drop_space", space=row["space"], batch=5000)[0]["deleted"]:
                pass


@pytest.mark.parametrize("dataset", ["hotpotqa", "longmemeval"])
def test_bench_reason_variant_reports_memory_tokens_and_gold_in_the_items_used(
    cli_env, tmp_path: Path, dataset: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_fixture(dataset, tmp_path)
    out = tmp_path / "result.json"
    code = main(
        ["bench", "quality", "--dataset", dataset, "--data", str(data), "--limit", "1", "--variants", "hybrid,reason",
         "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    reason = json.loads(out.read_text())["variants"]["reason"]
    budget = get_settings().read_reasoning_tokens
    assert 0 < reason["memory_tokens"] <= budget and reason["evidence_tokens_reasoned"] > 0
    assert reason["guidance_recall_any"] == 1.0  # the guidance drew on the gold evidence of a tiny haystack
    assert "memory_tokens" not in json.loads(out.read_text())["variants"]["hybrid"]
    assert "| reason  | " in capsys.readouterr().out


def test_unknown_variant_is_refused_naming_the_flag(cli_env, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = write_fixture("versioned", tmp_path)
    assert main(["bench", "quality", "--dataset", "versioned", "--data", str(data), "--variants", "bm42"]) == 1
    assert "--variants" in capsys.readouterr().err


def test_bench_perf_smoke_times_python_and_graphql_and_the_references(
    cli_env, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "perf.json"
    code = main(
        ["bench", "perf", "--nodes", "200", "--queries", "10", "--concurrency", "2", "--scan-queries", "3",
         "--settle-max", "60", "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    result = json.loads(out.read_text())
    scale = result["scales"]["200"]
    python_ops = {"recall", "recall_as_of", "tag_vote", "route_subgoal", "provenance", "vector_leg"}
    http_ops = {"http_recall", "http_recall_as_of", "http_tag_vote", "http_route_subgoal", "http_provenance"}
    assert set(scale["operations"]) == python_ops | http_ops
    for name, by_clients in scale["operations"].items():
        assert set(by_clients) == {"c1", "c2"}, name
        for timing in by_clients.values():
            assert timing["n"] == 10 and 0 < timing["p50_ms"] <= timing["p95_ms"] <= timing["p99_ms"], name
    assert set(scale["references"]) == {"numpy_exact_topk", "full_scan_cypher"}
    assert all(ref["p50_ms"] > 0 and ref["ratio_to_ours_p50"] is not None for ref in scale["references"].values())
    # 20 facts per space: the in-index filtered search must find the exact top 10 (nothing approximate yet)
    assert scale["ann_recall@10"] >= 0.9
    assert result["machine"]["cpus"] >= 1 and result["service_max_rss_mib"] > 0
    # the server reported its CPU time, and timing began once it went quiet or when the 60 s cap ran out
    assert scale["server_cores_at_start"] is not None
    assert scale["settled"] or scale["settle_seconds"] >= 60
    printed = capsys.readouterr().out
    assert "| 200 | 10 | http_recall | 1 |" in printed and "ref: full_scan_cypher" in printed
    leftovers = cli_env.run_read_text("MATCH (n) WHERE n.space STARTS WITH 'perf-' RETURN count(n) AS n")
    assert leftovers[0]["n"] == 0  # the synthetic spaces were dropped
