"""Covering names: when the question names two or more subjects and only a few documents of the tag-documents
leg cover every one (`graphmem.read.coverage`), those documents gain `bonus` (value part `covers_names`)."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.coverage import covering_documents, named_subjects
from graphmem.read.fusion import Fused
from graphmem.read.legs.tags import question_subjects
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record


def covering(ctx: RecallContext) -> frozenset[str]:
    """Ids of the documents covering every name the question asks about (computed once per run)."""
    run = ctx.run
    if run.covering is None:
        tag_documents = next((r for r in run.rankings if r.leg == "tagdocs"), None)
        if tag_documents is None:
            run.covering = frozenset()
        else:
            named = named_subjects(run.plan.query, question_subjects([m.query_tag for m in run.tag_matches]).values())
            run.covering = covering_documents(tag_documents, named, ctx.config.stages.cover.max_documents)
    return run.covering


class CoverStage:
    name: ClassVar[str] = "cover"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        bonus = ctx.config.stages.cover.bonus
        ids = covering(ctx) if bonus > 0 else frozenset()
        for rank, f in enumerate(items, start=1):
            if f.row.id in ids:
                f.row.extra.setdefault("value", {})["covers_names"] = 1.0
                f.rrf += bonus
                record(f, self.name, rank, bonus)
        return items
