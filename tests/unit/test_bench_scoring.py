"""Scoring one question per dataset plan, averaging with by-type breakdowns, and the printed table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.bench.quality.datasets import locomo, longmemeval, paragraphs, versioned
from graphmem.bench.quality.datasets.base import Question
from graphmem.bench.quality.report import render
from graphmem.bench.quality.scoring import Ranking, aggregate, score_question


def _tokens(key: str) -> int:
    return 7


def test_longmemeval_scores_sessions_as_headline_and_turns_separately() -> None:
    q = Question("q", "?", "multi-session", gold_units=("s2:0",), gold_sessions=("s2", "s3"))
    ranking = Ranking(units=["s1:0", "s2:0", "s1:2"], sessions=["s1", "s2", "s4", "s3"])
    scores = score_question(q, ranking, longmemeval.PLAN, tokens=_tokens)
    assert scores["recall_any@1"] == 0.0
    assert scores["recall_any@5"] == 1.0
    assert scores["recall@5"] == 1.0 and scores["all@5"] == 1.0
    assert scores["mrr"] == 0.5
    assert scores["turn_recall@5"] == 1.0
    assert scores["evidence_tokens@5"] == 4 * 7  # four sessions came back


def test_longmemeval_question_without_gold_turns_has_no_turn_metrics() -> None:
    q = Question("q", "?", "t", gold_units=(), gold_sessions=("s1",))
    scores = score_question(q, Ranking(units=["s1:0"], sessions=["s1"]), longmemeval.PLAN, tokens=_tokens)
    assert not any(name.startswith("turn_") for name in scores)


def test_locomo_scores_turns_first_and_sessions_second() -> None:
    q = Question("q", "?", "multi-hop", gold_units=("D1:3", "D2:1"), gold_sessions=("D1", "D2"))
    ranking = Ranking(units=["D1:3", "D1:1", "D3:1"], sessions=["D1", "D3", "D2"])
    scores = score_question(q, ranking, locomo.PLAN, tokens=_tokens)
    assert scores["recall@5"] == 0.5
    assert scores["session_recall@5"] == 1.0


def test_versioned_scores_staleness_and_future_leak_only_where_they_apply() -> None:
    dates = {
        "old": datetime(2022, 1, 1, tzinfo=UTC),
        "mid": datetime(2023, 1, 1, tzinfo=UTC),
        "new": datetime(2024, 1, 1, tzinfo=UTC),
    }
    current = Question("c", "?", "current", gold_units=("new",), stale=("old", "mid"))
    as_of = Question("a", "?", "as_of", gold_units=("mid",), stale=("old",), as_of="2023-06-01T00:00:00Z")
    s_current = score_question(current, Ranking(units=["mid", "new"]), versioned.PLAN, tokens=_tokens, event_at=dates)
    s_as_of = score_question(as_of, Ranking(units=["mid", "new"]), versioned.PLAN, tokens=_tokens, event_at=dates)
    assert s_current["gold@1"] == 0.0 and s_current["stale_above_gold"] == 1.0
    assert "future_leak" not in s_current
    assert s_as_of["gold@1"] == 1.0 and s_as_of["future_leak"] == 1.0  # "new" is dated after as_of

    summary = aggregate([(current, s_current), (as_of, s_as_of)])
    assert summary["n"] == 2
    assert summary["gold@1"] == 0.5
    assert summary["stale_above_gold"] == 0.5 and summary["n_stale"] == 2
    assert summary["future_leak"] == 1.0 and summary["n_as_of"] == 1
    assert summary["by_type"]["as_of"]["gold@1"] == 1.0
    assert summary["by_type"]["current"]["n"] == 1


def test_hotpot_all_at_2_needs_both_supporting_paragraphs() -> None:
    q = Question("h", "?", "all", gold_units=("p1", "p2"))
    scores = score_question(q, Ranking(units=["p1", "x", "p2"]), paragraphs.PLAN, tokens=_tokens)
    assert scores["recall@2"] == 0.5 and scores["all@2"] == 0.0 and scores["all@5"] == 1.0


def test_render_prints_one_row_per_variant_and_the_headline_by_type() -> None:
    q = Question("h", "?", "2-hop", gold_units=("p1",))
    rows = [(q, score_question(q, Ranking(units=["p1"]), paragraphs.PLAN, tokens=_tokens))]
    result = {"dataset": "musique", "variants": {"vector": aggregate(rows), "hybrid": aggregate(rows)}}
    table = render(result)
    assert "| vector " in table and "| hybrid " in table
    assert "2-hop" in table
    assert table.count("1.000") >= 2


@pytest.mark.parametrize("metric", ["recall@5", "ndcg@10", "mrr", "evidence_tokens@5", "n"])
def test_aggregate_has_the_interfaces_fields(metric: str) -> None:
    q = Question("h", "?", "all", gold_units=("p1",))
    rows = [(q, score_question(q, Ranking(units=["p1"]), paragraphs.PLAN, tokens=_tokens))]
    assert metric in aggregate(rows)


def test_an_exact_repeat_is_dated_as_its_first_occurrence_for_leak_checks() -> None:
    from graphmem.bench.quality.datasets.base import Document, Scope
    from graphmem.bench.quality.runner import event_dates

    scope = Scope(
        "s",
        [],
        documents=[
            Document("early", "lunch closes at 11:30", event_at="2022-01-01T00:00:00Z"),
            Document("late", "lunch closes at 11:30", event_at="2024-01-01T00:00:00Z"),
            Document("other", "payments lead changed", event_at="2024-01-01T00:00:00Z"),
        ],
    )
    dates = event_dates(scope)
    assert dates["late"] == dates["early"] == datetime(2022, 1, 1, tzinfo=UTC)
    assert dates["other"] == datetime(2024, 1, 1, tzinfo=UTC)
