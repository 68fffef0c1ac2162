"""Latest slots: the top k keeps `slots` places (at most a third of k) for the latest-dated candidates of the
fused top 3k not already in the top k - slots (Mem++); the chosen are flagged `latest_slot`."""

from __future__ import annotations

from typing import ClassVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.stages.base import record


def reserve_latest(ranked: list[Fused], k: int, slots: int) -> tuple[list[Fused], set[str]]:
    """Top k with `slots` places kept for the latest-dated candidates not already in the top k - slots.
    Slots are at most a third of k, so a short list stays mostly relevance-ranked, and they are filled
    from the fused top 3k only: a latest match must still be a match."""
    slots = min(slots, k // 3)
    if slots <= 0 or len(ranked) <= k - slots:
        return ranked[:k], set()
    head = ranked[: k - slots]
    rest = [f for f in ranked[k - slots : 3 * k] if f.row.event_at is not None]
    latest = sorted(rest, key=lambda f: f.row.event_at, reverse=True)[:slots]  # type: ignore[arg-type, return-value]
    chosen = {f.row.id for f in latest}
    filler = [f for f in ranked[k - slots :] if f.row.id not in chosen][: slots - len(latest)]
    tail = sorted(latest + filler, key=lambda f: -f.rrf)
    return head + tail, chosen


class LatestStage:
    name: ClassVar[str] = "latest"

    def apply(self, ctx: RecallContext, items: list[Fused]) -> list[Fused]:
        slots = ctx.config.stages.latest.slots if ctx.latest_slots is None else ctx.latest_slots
        top, ctx.latest_ids = reserve_latest(items, ctx.k, slots)
        if ctx.latest_ids:
            for rank, f in enumerate(items, start=1):
                if f.row.id in ctx.latest_ids:
                    record(f, self.name, rank, 0.0)
        return top
