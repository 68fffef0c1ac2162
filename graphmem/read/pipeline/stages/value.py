"""Value model stage: adds the weighted value components (relevance, recency, importance, return,
credibility, uses; `graphmem.read.value_model`) to each candidate's normalised fused score."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.value_model import ValueWeights, components, value_score


def weights_of(ctx: RecallContext) -> ValueWeights:
    """The config's weights when it fixes them (a baseline's zeros), else the caller's, else the space's."""
    configured = ctx.config.stages.value.weights
    if configured is not None:
        return ValueWeights.from_mapping(configured, "value_weights")
    if ctx.value_weights is not None:
        return ctx.value_weights
    return ValueWeights.for_space(ctx.settings, ctx.space)


class ValueStage:
    name: ClassVar[str] = "value"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        weights = weights_of(ctx)
        half_life = ctx.config.stages.value.recency_half_life_days
        for f in items:
            parts = components(f.row, ctx.run.scope.as_of, half_life)
            parts["rrf"] = f.rrf
            f.rrf = f.rrf + value_score(parts, weights)
            f.row.extra["value"] = parts
        return items
