"""Numbers the question names: a word written with digits ("ward-7b", "q3", "22") names one thing, which the
embedding hardly tells from its neighbours ("ward-4c", "q4"). Among the first `window` candidates, one whose
text or source text holds such words of the question gains `weight` x what they tell apart: each word by how
few of the window hold it (value part `numbers`). Dates the question names are the dates
stage's; a question without numbers is left alone."""

from __future__ import annotations

import math
from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record
from graphmem.read.question_dates import question_dates
from graphmem.read.versions import unit_subjects
from graphmem.text import numbered_words


def question_numbers(query: str) -> frozenset[str]:
    """The question's numbered words, less those inside the dates it names (its as-of phrase included)."""
    dates = question_dates(query)
    cuts = [m.where for m in dates.mentions] + ([dates.as_of_where] if dates.as_of_where else [])
    for start, end in sorted(cuts, reverse=True):
        query = query[:start] + " " + query[end:]
    return numbered_words(query)


def shares(asked: frozenset[str], held: dict[str, frozenset[str]]) -> dict[str, float]:
    """Per candidate, what the asked words it holds tell apart, in [0, 1]: each word weighs ln(n / holders)
    / ln(n) over the n candidates (1 when one holds it, 0 when all do), averaged over the words some hold."""
    n = len(held)
    holders = {w: sum(w in words for words in held.values()) for w in asked}
    weight = {w: math.log(n / c) / math.log(n) for w, c in holders.items() if c}
    if n < 2 or not weight:
        return {}
    return {cid: sum(weight[w] for w in words & weight.keys()) / len(weight) for cid, words in held.items()}


class NumbersStage:
    name: ClassVar[str] = "numbers"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        settings = ctx.config.stages.numbers
        asked = question_numbers(ctx.run.plan.query)
        window = items[: settings.window]
        if not asked or not settings.weight or len(window) < 2:
            return items
        missing = [f.row.id for f in window if f.row.id not in ctx.subjects]
        ctx.subjects.update(unit_subjects(ctx.store, ctx.space, missing))
        held = {}
        for f in window:
            subject = ctx.subjects.get(f.row.id)
            source = subject.source_text if subject is not None else ""
            held[f.row.id] = numbered_words(f"{f.row.text or ''}\n{source}") & asked
        share = shares(asked, held)
        for rank, f in enumerate(window, start=1):
            part = share.get(f.row.id, 0.0)
            if part:
                f.row.extra.setdefault("value", {})["numbers"] = part
                f.rrf += settings.weight * part
                record(f, self.name, rank, settings.weight * part)
        return items
