"""Weighted reciprocal-rank fusion (RRF, constant 60): each leg adds weight / (k + rank) for a unit, a tied
group of units counting at the middle of its positions (`tied_ranks`).

Ranks, not raw scores, are fused, so legs with incomparable scales (cosine, BM25, votes) combine fairly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from graphmem.read.legs.base import LegRanking, UnitRow
from graphmem.read.results import LegSignal

RRF_K = 60
_TIE = 1e-9


def leg_weight(weights: Mapping[str, float], leg: str) -> float:
    """A leg's weight; a multi-hop round's leg ('tagvote@2') without its own weight weighs as the leg does."""
    if leg in weights:
        return float(weights[leg])
    return float(weights.get(leg.split("@")[0], 1.0))


@dataclass
class Fused:
    """A unit after fusion: its row (first leg that found it, enriched by later ones), RRF score, signals."""

    row: UnitRow
    rrf: float
    signals: dict[str, LegSignal] = field(default_factory=dict)


def weighted_rrf(rankings: Sequence[LegRanking], weights: Mapping[str, float], k: int = RRF_K) -> list[Fused]:
    """Units of all rankings, best fused score first (ties: best cosine, then id, for a stable order)."""
    fused: dict[str, Fused] = {}
    for ranking in rankings:
        weight = leg_weight(weights, ranking.leg)
        for row, (rank, fused_rank) in zip(ranking.rows, tied_ranks([r.score for r in ranking.rows]), strict=True):
            entry = fused.get(row.id)
            if entry is None:
                entry = fused[row.id] = Fused(row=row, rrf=0.0)
            elif row.similarity is not None and (entry.row.similarity is None or row.similarity > entry.row.similarity):
                # relevance = best cosine to any formulation of the query (multi-hop rounds expand it)
                entry.row.similarity = row.similarity
            entry.row.extra.update({k2: v for k2, v in row.extra.items() if k2 not in entry.row.extra})
            entry.rrf += weight / (k + fused_rank)
            entry.signals[ranking.leg] = LegSignal(rank=rank, score=row.score)
    return sorted(fused.values(), key=lambda f: (-f.rrf, -(f.row.similarity or 0.0), f.row.id))


def tied_ranks(scores: Sequence[float]) -> list[tuple[int, float]]:
    """Each score's rank in a best-first list, twice: as the leg reports it (tied scores share the best
    position: fusion must not invent an order the leg lacks) and as fusion counts it (the middle of the tied
    positions). A tie is as informative as its size: 300 facts tied at the top of the tag votes because they
    all name "Caroline" each count as rank 150.5, not as 300 first places above every unit another leg ranked
    second."""
    ranks: list[tuple[int, float]] = []
    start = 0
    while start < len(scores):
        end = start
        while end + 1 < len(scores) and abs(scores[end + 1] - scores[start]) <= _TIE:
            end += 1
        ranks.extend([(start + 1, (start + end) / 2 + 1)] * (end - start + 1))
        start = end + 1
    return ranks


def max_rrf(rankings: Sequence[LegRanking], weights: Mapping[str, float], k: int = RRF_K) -> float:
    """The best fused score possible (rank 1 in every leg that ran), to normalise RRF into [0, 1]."""
    total = sum(leg_weight(weights, r.leg) for r in rankings)
    return total / (k + 1) if total > 0 else 1.0
