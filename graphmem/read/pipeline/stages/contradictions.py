"""Contradictions: conflicting pairs among the first `candidates` active fact hits of different authors are
flagged on the result (`graphmem.read.contradictions`); the hits themselves are unchanged."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.contradictions import find_contradictions
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.results import RecallHit


class ContradictionsStage:
    name: ClassVar[str] = "contradictions"

    def apply(self, ctx: RecallContext, items: list[RecallHit]) -> list[RecallHit]:
        known_tags = {unit_id: s.tag_names for unit_id, s in ctx.subjects.items() if s.tag_names is not None}
        candidates = ctx.config.stages.contradictions.candidates
        ctx.contradictions = find_contradictions(ctx.store, ctx.space, items, candidates, known_tags)
        return items
