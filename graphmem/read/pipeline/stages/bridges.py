"""Passage bridges (off by default): where the candidates rest on undated passages, rank by passage and lift
the passages the best ones name (`graphmem.read.bridges`)."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.bridges import BridgeSettings, bridge_passages
from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record_moves


class BridgesStage:
    name: ClassVar[str] = "bridges"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        s = ctx.config.stages.bridges
        options = BridgeSettings(s.weight, s.seeds, s.window, s.max_degree, s.vote, s.per_seed)
        vector = ctx.run.query_vector
        if not options.on or vector is None:
            return items
        ranked = bridge_passages(ctx.store, options, ctx.space, ctx.run, items, vector)
        record_moves(self.name, items, ranked)
        return ranked
