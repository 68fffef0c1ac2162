"""Version choice: for a question about what holds (now or at the as-of date), the newer version of a
statement found among the first `window` candidates moves above the older (`graphmem.read.versions`)."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record_moves
from graphmem.read.versions import (
    asks_for_state,
    prefer_newer_versions,
    question_subject_words,
    unit_subjects,
    version_candidates,
)


class VersionsStage:
    name: ClassVar[str] = "versions"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        settings = ctx.config.stages.versions
        if settings.window <= 1 or not asks_for_state(ctx.text, ctx.run.scope):
            return items
        ctx.subjects = unit_subjects(ctx.store, ctx.space, version_candidates(items, settings.window))
        ranked = prefer_newer_versions(
            items,
            ctx.subjects,
            settings.window,
            settings.cosine,
            settings.margin,
            question_subject_words(ctx.run.plan.tags),
            settings.subject_cosine,
            ctx.version_links,
        )
        record_moves(self.name, items, ranked)
        return ranked
