"""Version choice by pairs (`graphmem.read.slot_pairs`): the candidates of the first `window` that state the
same slot as the one holding most of the question's rare words, decided per pair, read first — newest first,
or, when version choice by wording moved a candidate of the window, in the order it gave them (`defer`; for a
question bounded by an as-of date `defer_bounded`, where the bound has already removed every later version).
Either way a candidate the wording stage moved to the first place stays there, the group below it. A question
without an as-of date that asks about an event or a change is left alone (`event_gate`). A question asked in
a candidate ("anyone know the location for icu-east?") states nothing, so the words it holds do not count."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.config import SlotPairsSettings
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import SIGNAL_PREFIX, record_moves
from graphmem.read.slot_pairs import order_slot_versions, question_words, rarity
from graphmem.read.slots import asks_about_state, slot_terms
from graphmem.read.versions import unit_subjects
from graphmem.text import split_sentences


def stated_text(text: str) -> str:
    """`text` less its questions: the sentences that may state a value."""
    return "\n".join(s for s in split_sentences(text) if not s.endswith("?"))


def keeps_wording_order(settings: SlotPairsSettings, current: bool, moved: bool) -> bool:
    """Whether the group keeps the order version choice by wording gave it (it `moved` a candidate of the
    window): `defer` for a current question, `defer_bounded` for one bounded by an as-of date."""
    return moved and (settings.defer if current else settings.defer_bounded)


class SlotPairsStage:
    name: ClassVar[str] = "slot_pairs"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        settings = ctx.config.stages.slot_pairs
        window = items[: settings.window]
        if settings.window <= 1 or sum(f.row.event_at is not None for f in window) < 2:
            return items
        if settings.event_gate and ctx.run.scope.current and not asks_about_state(ctx.run.plan.query):
            return items
        # version choice by wording moved a candidate: it chose among the versions, this stage only lifts them
        moved = any(SIGNAL_PREFIX + "versions" in f.signals for f in window)
        keep_order = keeps_wording_order(settings, ctx.run.scope.current, moved)
        words = question_words(ctx.run.plan.tags)
        weights = rarity(ctx.store, ctx.space, words, settings.rarity_cap)
        if not weights:
            return items
        missing = [f.row.id for f in window if f.row.id not in ctx.subjects]
        ctx.subjects.update(unit_subjects(ctx.store, ctx.space, missing))
        held: dict[str, frozenset[str]] = {}
        vectors: dict[str, list[np.ndarray]] = {}
        for f in window:
            subject = ctx.subjects.get(f.row.id)
            source = subject.source_text if subject is not None else ""
            held[f.row.id] = slot_terms(stated_text(f"{f.row.text or ''}\n{source}")) & weights.keys()
            if subject is not None:
                vectors[f.row.id] = [v for v in (subject.embedding, subject.source_embedding) if v is not None]
        # ... and the candidate it moved up to the first place stays there
        chosen = items[0].signals.get(SIGNAL_PREFIX + "versions") if moved else None
        pinned = items[0].row.id if chosen is not None and chosen.rank > 1 else None
        ranked = order_slot_versions(items, held, weights, settings, vectors, keep_order, ctx.version_links, pinned)
        record_moves(self.name, items, ranked)
        return ranked
