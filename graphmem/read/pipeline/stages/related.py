"""Related artefacts: the versions and thread of the documents the top hits rest on come into the evidence
after their hit (`graphmem.read.related`); the hits themselves are unchanged."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.pipeline.context import RecallContext
from graphmem.read.related import related_artefacts
from graphmem.read.results import RecallHit


class RelatedStage:
    name: ClassVar[str] = "related"

    def apply(self, ctx: RecallContext, items: list[RecallHit]) -> list[RecallHit]:
        ctx.related = related_artefacts(ctx.store, ctx.config.stages.related, ctx.space, ctx.run.scope, items)
        return items
