"""Packing: the hits, each followed by its related artefacts, then the expanded episodes, as one evidence
text within the character and token budgets (`graphmem.read.packing`)."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.packing import evidence_blocks, pack_evidence
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.results import RecallHit, evidence_order


class PackingStage:
    name: ClassVar[str] = "packing"

    def apply(self, ctx: RecallContext, items: list[RecallHit]) -> list[RecallHit]:
        settings = ctx.config.stages.packing
        ctx.pack = pack_evidence(
            evidence_blocks(evidence_order(items, ctx.related), ctx.episodes),
            ctx.embedder.count_tokens,
            max_chars=ctx.char_budget or settings.chars,
            max_tokens=ctx.token_budget or settings.tokens,
        )
        return items
