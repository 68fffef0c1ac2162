"""The read-side fold of repeats: one text stored several times answers once, at the best rank."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.read.repeats import fold
from graphmem.read.results import RecallHit


def hit(node_id: str, month: int, score: float, kind: str = "episodic") -> RecallHit:
    at = datetime(2024, month, 1, tzinfo=UTC)
    return RecallHit(node_id, kind, "the same reminder", score, {}, at, None, "active", at, None)


def test_a_repeat_is_folded_into_the_earliest_unit_at_the_best_rank() -> None:
    hits = [hit("later", 9, 0.9), hit("fact", 1, 0.8, "semantic"), hit("first", 1, 0.7), hit("other", 2, 0.6)]

    folded = fold(hits, {"later": "first"})

    assert [h.id for h in folded] == ["first", "fact", "other"]
    assert folded[0].repeats == ("later",) and folded[0].score == 0.9


def test_two_repeats_of_a_unit_outside_the_result_fold_into_the_earlier_repeat() -> None:
    hits = [hit("r3", 9, 0.9), hit("r2", 3, 0.8)]

    folded = fold(hits, {"r3": "r1", "r2": "r1"})

    assert [(h.id, h.repeats) for h in folded] == [("r2", ("r3",))]


def test_hits_that_repeat_nothing_are_unchanged() -> None:
    hits = [hit("a", 1, 0.9), hit("a", 1, 0.5, "semantic")]

    assert fold(hits, {}) == hits
