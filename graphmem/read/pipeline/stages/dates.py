"""Dates named in the question: a candidate dated within the day or month (give or take a week) a question
names gains `weight` x closeness (`graphmem.read.question_dates`), recorded as the `date_match` value part."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record


class DatesStage:
    name: ClassVar[str] = "dates"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        weight = ctx.config.stages.dates.weight
        dates = ctx.run.dates
        if not weight or not dates.mentions:
            return items
        for rank, f in enumerate(items, start=1):
            closeness = dates.closeness(f.row.event_at)
            f.row.extra.setdefault("value", {})["date_match"] = closeness
            f.rrf += weight * closeness
            if closeness:
                record(f, self.name, rank, weight * closeness)
        return items
