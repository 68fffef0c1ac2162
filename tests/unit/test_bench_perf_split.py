"""`graphmem bench perf --spaces N` spreads each scale's facts over N spaces and says so in its report."""

from __future__ import annotations

import pytest

from graphmem.bench.perf import facts_per_space, render
from graphmem.cli import main
from graphmem.errors import InvalidInput


@pytest.mark.parametrize(
    ("facts", "spaces", "expected"),
    [
        (1_000_000, 1, [1_000_000]),
        (1_000_000, 10, [100_000] * 10),
        (2000, 2, [1000, 1000]),
        (1003, 4, [251, 251, 251, 250]),
    ],
)
def test_a_scale_is_split_evenly_and_no_fact_is_dropped(facts: int, spaces: int, expected: list[int]) -> None:
    split = facts_per_space(facts, spaces)
    assert split == expected and sum(split) == facts


def test_no_spaces_is_refused_with_the_option_named() -> None:
    with pytest.raises(InvalidInput, match="spaces"):
        facts_per_space(100, 0)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--spaces", "0"], "--spaces"),
        (["--nodes", "2000", "--spaces", "101"], "at least 2020 facts"),
        (["--queries", "4"], "at least 5 queries"),
    ],
)
def test_the_cli_refuses_a_spread_it_cannot_load_before_touching_neo4j(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "perf", *argv]) == 1
    assert message in capsys.readouterr().err


def test_the_printed_tables_name_the_spaces_of_each_scale() -> None:
    timing = {"p50_ms": 1.0, "p95_ms": 2.0, "p99_ms": 3.0, "qps": 4.0, "n": 5}
    scale = {
        "spaces": 1,
        "nodes": 2300,
        "load_seconds": 1.0,
        "settle_seconds": 0.0,
        "settled": True,
        "warm_up_seconds": 0.5,
        "ann_recall@10": 1.0,
        "operations": {"recall": {"c1": timing}, "vector_leg": {"c1": timing}},
        "references": {
            "numpy_exact_topk": {**timing, "ratio_to_ours_p50": 1.0},
            "full_scan_cypher": {**timing, "ratio_to_ours_p50": 1.0},
        },
    }
    output = {"command": "graphmem bench perf --spaces 1", "machine": {}, "spaces": 1, "scales": {"2000": scale},
              "service_max_rss_mib": 1.0}  # fmt: skip
    table = render(output)
    assert "| facts | spaces | operation |" in table
    assert "| 2,000 | 1 | recall | 1 | 1.0 | 2.0 | 3.0 | 4.0 |" in table
    assert "| 2,000 | 1 | 2,300 |" in table
