"""`LegRun`: the legs' rankings for one question, which the refine stages and multi-hop rounds add to."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphmem.read.asof import AsOf
from graphmem.read.legs.base import LegRanking
from graphmem.read.question_dates import QuestionDates
from graphmem.read.results import Plan, TagMatch


@dataclass
class LegRun:
    """The legs' rankings for one question, with what it took."""

    rankings: list[LegRanking]
    plan: Plan
    scope: AsOf
    kinds: tuple[str, ...]
    legs: tuple[str, ...]
    timings_ms: dict[str, float] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    dates: QuestionDates = field(default_factory=lambda: QuestionDates(None, ()))
    as_of_from_question: bool = False
    tag_matches: list[TagMatch] = field(default_factory=list)
    covering: frozenset[str] | None = None  # set by the cover stage, once per run
    query_vector: list[float] | None = None
