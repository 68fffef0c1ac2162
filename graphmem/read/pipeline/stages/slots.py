"""Slot choice (off by default): the first `window` candidates rescored by how much of the question's slot
they hold and, for a question about a state, the newest version of the slot read first (`graphmem.read.slots`)."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record_moves
from graphmem.read.slots import SlotSettings, asks_about_state, choose_by_slot, question_terms, term_weights
from graphmem.read.versions import UnitSubject, unit_subjects


def _text(f: Fused, subjects: dict[str, UnitSubject]) -> str:
    """A candidate's own text with the text it was read from."""
    own = f.row.text or ""
    return f"{own}\n{subjects[f.row.id].source_text}" if f.row.id in subjects else own


class SlotsStage:
    name: ClassVar[str] = "slots"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        settings = ctx.config.stages.slots
        if settings.weight <= 0 or settings.window <= 0:
            return items
        run, subjects = ctx.run, ctx.subjects
        missing = [f.row.id for f in items[: settings.window] if f.row.id not in subjects]
        subjects.update(unit_subjects(ctx.store, ctx.space, missing))
        terms = sorted(question_terms(run.plan.tags))
        weights = term_weights(ctx.store, ctx.space, terms, settings.rarity_cap)
        texts = {f.row.id: _text(f, subjects) for f in items[: settings.window]}
        state = not run.scope.current or asks_about_state(run.plan.query)
        ranked = choose_by_slot(
            items,
            texts,
            weights,
            SlotSettings(settings.weight, settings.margin, settings.window, settings.saturation),
            state,
        )
        record_moves(self.name, items, ranked)
        return ranked
