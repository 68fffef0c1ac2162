"""The stage interface: a name (its field in `RecallConfig.stages`) and `apply(ctx, items) -> items`.

Rank stages take and return the fused candidates, best first; hit stages take and return the chosen hits
(and may fill the context: expansions, the packed evidence). A stage runs only when its settings are enabled;
what it changed on a candidate it records in the candidate's signals as `stage:<name>`: a `LegSignal` whose
rank is the candidate's rank before the stage and whose score is what the stage added to its score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol, TypeVar

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.results import LegSignal, RecallHit

Items = TypeVar("Items")
SIGNAL_PREFIX = "stage:"


class Stage(Protocol[Items]):
    name: ClassVar[str]

    def apply(self, ctx: RecallContext, items: Items) -> Items: ...


RankStage = Stage[list[Fused]]
HitStage = Stage[list[RecallHit]]


def record(candidate: Fused, stage: str, rank_before: int, added: float) -> None:
    """Note on `candidate` that `stage` changed it: its rank before (1-based) and the score it added."""
    candidate.signals[SIGNAL_PREFIX + stage] = LegSignal(rank=rank_before, score=added)


def record_moves(stage: str, before: Sequence[Fused], after: Sequence[Fused]) -> None:
    """Record every candidate of `after` whose rank differs from its rank in `before`."""
    old = {f.row.id: n for n, f in enumerate(before, start=1)}
    for n, f in enumerate(after, start=1):
        rank = old.get(f.row.id)
        if rank is not None and rank != n:
            record(f, stage, rank, 0.0)


def by_score(ranked: list[Fused]) -> list[Fused]:
    """Best score first; ties by best cosine, then id (a total order, so any stage order sorts alike)."""
    return sorted(ranked, key=lambda f: (-f.rrf, -(f.row.similarity or 0.0), f.row.id))
