"""Retrieval metrics on small hand-made rankings whose right answers can be worked out by hand."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from graphmem.bench.quality import metrics


def test_recall_any_counts_one_gold_hit_within_k() -> None:
    ranking = ["a", "b", "g1", "c"]
    assert metrics.recall_any_at(ranking, {"g1", "g2"}, 3) == 1.0
    assert metrics.recall_any_at(ranking, {"g1", "g2"}, 2) == 0.0


def test_recall_is_the_share_of_gold_found_and_all_needs_every_one() -> None:
    ranking = ["g1", "x", "g2", "y", "z"]
    gold = {"g1", "g2", "g3"}
    assert metrics.recall_at(ranking, gold, 2) == pytest.approx(1 / 3)
    assert metrics.recall_at(ranking, gold, 5) == pytest.approx(2 / 3)
    assert metrics.all_at(ranking, gold, 5) == 0.0
    assert metrics.all_at(ranking, {"g1", "g2"}, 3) == 1.0
    assert metrics.all_at(ranking, {"g1", "g2"}, 2) == 0.0


def test_repeated_keys_count_once_so_a_session_hit_by_many_turns_takes_one_slot() -> None:
    ranking = ["s1", "s1", "s1", "s2"]
    assert metrics.recall_any_at(ranking, {"s2"}, 2) == 1.0
    assert metrics.mrr(ranking, {"s2"}) == 0.5


def test_mrr_is_reciprocal_rank_of_first_gold_and_zero_when_missing() -> None:
    assert metrics.mrr(["a", "b", "g"], {"g"}) == pytest.approx(1 / 3)
    assert metrics.mrr(["a", "b"], {"g"}) == 0.0


def test_ndcg_is_one_for_an_ideal_ranking_and_matches_the_formula_otherwise() -> None:
    assert metrics.ndcg_at(["g1", "g2", "x"], {"g1", "g2"}, 10) == pytest.approx(1.0)
    expected = (1 / math.log2(3)) / (1 / math.log2(2) + 1 / math.log2(3))
    assert metrics.ndcg_at(["x", "g1", "y"], {"g1", "g2"}, 10) == pytest.approx(expected)
    assert metrics.ndcg_at(["x"] * 3, {"g"}, 10) == 0.0


def test_gold_at_1() -> None:
    assert metrics.gold_at_1(["g", "x"], {"g"}) == 1.0
    assert metrics.gold_at_1(["x", "g"], {"g"}) == 0.0


def test_stale_above_gold_when_an_outdated_version_outranks_every_gold() -> None:
    assert metrics.stale_above_gold(["x", "old", "new"], {"new"}, {"old"}) == 1.0
    assert metrics.stale_above_gold(["new", "old"], {"new"}, {"old"}) == 0.0
    # only the outdated version came back: it is above the (missing) gold
    assert metrics.stale_above_gold(["x", "old"], {"new"}, {"old"}) == 1.0
    assert metrics.stale_above_gold(["x", "y"], {"new"}, {"old"}) == 0.0


def test_future_leak_flags_anything_dated_after_as_of_and_ignores_undated_units() -> None:
    as_of = datetime(2023, 1, 1, tzinfo=UTC)
    dates = {"past": datetime(2022, 6, 1, tzinfo=UTC), "future": datetime(2023, 2, 1, tzinfo=UTC), "undated": None}
    assert metrics.future_leak(["past", "undated"], dates, as_of) == 0.0
    assert metrics.future_leak(["past", "future"], dates, as_of) == 1.0


def test_evidence_tokens_sum_the_top_k_units_once_each() -> None:
    sizes = {"a": 10, "b": 20, "c": 40}
    assert metrics.evidence_tokens_at(["a", "a", "b", "c"], sizes.__getitem__, 2) == 30
