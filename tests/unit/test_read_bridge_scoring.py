"""Passage bridges' scoring: passages voted by their units, bridged passages lifted by seed and tie."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.read.bridges import BridgeSettings, Link, bridge_bonus, passage_scores, rerank
from graphmem.read.fusion import Fused
from graphmem.read.legs.base import UnitRow


def row(unit_id: str, kind: str = "semantic") -> UnitRow:
    return UnitRow(
        id=unit_id,
        kind=kind,
        text=unit_id,
        score=0.0,
        similarity=0.0,
        event_at=datetime(2020, 1, 1, tzinfo=UTC),
        author=None,
        status="active",
        valid_from=None,
        valid_to=None,
        importance=1.0,
        credibility=1.0,
        ret=None,
        uses=None,
        episode_id=None,
        seq=None,
        unit_kind=None,
    )


def test_a_passage_scores_its_best_unit_plus_a_share_of_the_others():
    scores = passage_scores([("a", 0.5), ("b", 0.9), ("a", 0.8), ("a", 0.1)], vote=0.5)
    assert scores["b"] == 0.9
    assert abs(scores["a"] - (0.8 + 0.5 * (0.5 + 0.1))) < 1e-9
    assert passage_scores([("a", 0.5), ("a", 0.4)], vote=0.0) == {"a": 0.5}


def test_each_seed_lifts_its_passages_nearest_the_question_by_its_strength():
    links = [
        Link(seed=0, passage="x", link=0.5, similarity=0.5),
        Link(seed=0, passage="w", link=0.9, similarity=0.1),  # farther from the question than x
        Link(seed=1, passage="y", link=0.5, similarity=0.4),  # a seed half as strong
        Link(seed=1, passage="x", link=0.5, similarity=0.9),  # x keeps its best bonus
        Link(seed=5, passage="z", link=0.5, similarity=0.9),  # not a seed
    ]
    bonus = bridge_bonus([1.0, 0.5], links, weight=0.4, per_seed=1)
    assert bonus == {"x": 0.4}
    both = bridge_bonus([1.0, 0.5], links, weight=0.4, per_seed=2)
    assert both == {"x": 0.4, "w": 0.4, "y": 0.2}
    assert bridge_bonus([], links, weight=0.4, per_seed=1) == {}


def test_a_bridged_passage_outside_the_candidates_enters_the_ranking():
    ranked = [Fused(row("f1"), 0.9), Fused(row("f2"), 0.8), Fused(row("d3", "episodic"), 0.3)]
    passage_of = {"f1": "d1", "f2": "d2", "d3": "d3"}
    scores = {"d1": 0.9, "d2": 0.8, "d3": 0.3}
    out = rerank(ranked, passage_of, {"d9": 0.85}, scores, {"d9": row("d9", "episodic")}, window=10)
    assert [f.row.id for f in out] == ["f1", "d9", "f2", "d3"]
    assert out[1].row.extra["value"]["bridge"] == 0.85


def test_units_of_one_passage_move_together():
    ranked = [Fused(row("f1"), 0.9), Fused(row("f2"), 0.8), Fused(row("f3"), 0.7)]
    passage_of = {"f1": "d1", "f2": "d2", "f3": "d1"}
    scores = passage_scores([(passage_of[f.row.id], f.rrf) for f in ranked], vote=0.5)
    out = rerank(ranked, passage_of, {}, scores, {}, window=10)
    assert [f.row.id for f in out] == ["f1", "f3", "f2"]


def test_the_stage_is_off_without_a_window():
    assert not BridgeSettings(weight=0.5, seeds=2, window=0, max_degree=20, vote=0.0).on
    assert BridgeSettings(weight=0.5, seeds=2, window=30, max_degree=20, vote=0.0).on


def test_a_bridged_passage_stays_below_the_seed_it_was_reached_from():
    links = [Link(seed=0, passage="x", link=0.5, similarity=0.5), Link(seed=0, passage="y", link=0.5, similarity=0.1)]
    bonus = bridge_bonus([0.9], links, weight=0.5, per_seed=2, scores={"x": 0.7, "y": 0.95})
    assert 0.7 + bonus["x"] < 0.9
    assert bonus["x"] > 0.19
    assert "y" not in bonus  # already above its seed: nothing to gain
