"""`graphmem bench perf --spaces N` against a real Neo4j: each space holds its share of the facts, every query
searches one of them, and the report names the spread."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem.cli import main

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("spaces", [1, 2])
def test_perf_spreads_each_scale_over_the_spaces_asked_for(
    cli_env, spaces: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "perf.json"
    argv = ["bench", "perf", "--nodes", "2000", "--spaces", str(spaces), "--queries", "5", "--concurrency", "1",
            "--scan-queries", "2", "--settle-max", "0", "--no-http", "--keep", "--out", str(out)]  # fmt: skip
    try:
        assert main(argv) == 0
        result = json.loads(out.read_text())
        scale = result["scales"]["2000"]
        names = scale["space_names"]
        held = {
            r["space"]: r["facts"]
            for r in cli_env.run_read_text(
                "MATCH (f:Semantic) WHERE f.space IN $spaces RETURN f.space AS space, count(f) AS facts",
                spaces=names,
            )
        }
    finally:
        for space in json.loads(out.read_text())["scales"]["2000"]["space_names"] if out.exists() else []:
            while cli_env.write("bench/drop_space", space=space, batch=10000)[0]["deleted"]:
                pass
    assert result["spaces"] == spaces and scale["spaces"] == spaces and len(names) == spaces
    assert held == dict.fromkeys(names, 2000 // spaces)
    assert scale["facts_per_space"] == [2000 // spaces] * spaces
    for name in ("recall", "recall_as_of", "tag_vote", "route_subgoal", "provenance", "vector_leg"):
        timing = scale["operations"][name]["c1"]
        assert timing["n"] == 5 and 0 < timing["p50_ms"] <= timing["p95_ms"], name
    assert scale["ann_recall@10"] >= 0.9
    printed = capsys.readouterr().out
    assert f"| 2,000 | {spaces} | recall | 1 |" in printed
