"""Episodic expansion: a session or trajectory with at least `min_hits` hits comes back whole, in order
(`graphmem.read.expansion`); the hits themselves are unchanged."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.expansion import expand_episodes
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.results import RecallHit


class EpisodesStage:
    name: ClassVar[str] = "episodes"

    def apply(self, ctx: RecallContext, items: list[RecallHit]) -> list[RecallHit]:
        min_hits = ctx.config.stages.episodes.min_hits
        ctx.episodes = expand_episodes(ctx.store, ctx.space, ctx.run.scope, items, min_hits)
        return items
