"""Repeats folding: hits that repeat one text (`REPEATS` edges) answer once, as the earliest of them at the
group's best rank, listing the folded ids in `repeats` (`graphmem.read.repeats`)."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.pipeline.context import RecallContext
from graphmem.read.repeats import fold_repeats
from graphmem.read.results import RecallHit


class RepeatsStage:
    name: ClassVar[str] = "repeats"

    def apply(self, ctx: RecallContext, items: list[RecallHit]) -> list[RecallHit]:
        return fold_repeats(ctx.store, ctx.space, items)
