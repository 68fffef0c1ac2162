"""The rule classifier's verdicts on pairs of facts about one subject: a conflict needs the same opening, shared
tags or a close cosine, the same template and one differing value (or a negation); anything else is unrelated."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.pairs import CONFLICT, RESTATEMENT, UNRELATED, CandidatePair, PairSide, RuleClassifier


def pair(a: str, b: str, *, shared_tags: int = 1, similarity: float | None = None) -> CandidatePair:
    def side(unit_id: str, text: str) -> PairSide:
        when = datetime(2024, 1, 1, tzinfo=UTC)
        return PairSide(
            id=unit_id, text=text, valid_from=when, recorded_at=None, author=unit_id, credibility=None, tags=()
        )

    return CandidatePair(
        label="Semantic", a=side("a", a), b=side("b", b), similarity=similarity, shared_tags=shared_tags,
        shares_episode=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("a", "b", "shared_tags", "label"),
    [
        ("The Payments team budget is 120000 dollars", "The Payments team budget is 150000 dollars", 1, CONFLICT),
        ("The Orders service uses PostgreSQL", "The Orders service uses MongoDB", 1, CONFLICT),
        ("The launch is in March", "The launch is not in March", 1, CONFLICT),
        ("The Orders service uses PostgreSQL", "The Orders service uses MongoDB", 0, UNRELATED),  # not close
        ("Payments budget is 120000", "Orders budget is 150000", 1, UNRELATED),  # another subject
        ("The Payments team budget is 120000 dollars", "The Payments team offsite moved to 14 May", 1, UNRELATED),
        ("The launch is in March", "The launch is in March", 1, RESTATEMENT),
    ],
)
def test_a_conflict_is_one_differing_value_about_one_subject(a, b, shared_tags, label):
    verdict = RuleClassifier().classify_one(pair(a, b, shared_tags=shared_tags))
    assert verdict.label == label
    if label == CONFLICT:
        assert verdict.reason.startswith("same subject, different")
