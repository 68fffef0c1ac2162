"""Multi-hop: rounds 2..hops add rankings for the question expanded by the bridge tags of the facts found so
far (`graphmem.read.multihop`); they show in each hit's signals as legs `vector@N` and `tagvote@N`."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.leg_run import LegRun
from graphmem.read.multihop import expand_rounds
from graphmem.read.pipeline.context import RecallContext


class MultihopStage:
    name: ClassVar[str] = "multihop"

    def __init__(self, rank: Callable[[RecallContext], list[Fused]]) -> None:
        self._rank = rank

    def apply(self, ctx: RecallContext, items: LegRun) -> LegRun:
        hops = min(ctx.hops, ctx.config.stages.multihop.max_rounds)
        if hops <= 1 or "semantic" not in items.kinds:
            return items
        rounds = expand_rounds(
            ctx.store,
            ctx.embedder,
            ctx.config.legs,
            ctx.space,
            items,
            ctx.depth,
            ctx.k,
            hops,
            lambda _run: [f.row for f in self._rank(ctx)],
        )
        ctx.multihop_rounds = rounds
        return items
