"""Fuse the legs' rankings into one candidate list, then score it with the score stages (value model, dates,
covering names); multi-hop rounds rank by the same function, so bridges come from the real top k."""

from __future__ import annotations

from graphmem.read.fusion import Fused, max_rrf, weighted_rrf
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages import SCORE_STAGES
from graphmem.read.pipeline.stages.base import by_score


def fuse(ctx: RecallContext) -> list[Fused]:
    """The run's candidates, best first: RRF normalised to [0, 1] (value part `rrf`), or the best cosine."""
    run, fusion = ctx.run, ctx.config.fusion
    fused = weighted_rrf(run.rankings, run.weights, fusion.rrf_k)
    if fusion.method == "cosine":
        for f in fused:
            f.row.extra["value"] = {"relevance": f.row.similarity or 0.0}
            f.rrf = f.row.similarity if f.row.similarity is not None else -1.0
        return sorted(fused, key=lambda f: (-f.rrf, f.row.id))
    top = max_rrf(run.rankings, run.weights, fusion.rrf_k)
    for f in fused:
        f.rrf = f.rrf / top
        f.row.extra["value"] = {"rrf": f.rrf}
    return fused


def score(ctx: RecallContext) -> list[Fused]:
    """Fused candidates with every enabled score stage applied, best first."""
    ranked = fuse(ctx)
    for stage in SCORE_STAGES:
        if ctx.config.enabled(stage.name):
            ranked = by_score(stage.apply(ctx, ranked))
    return ranked
