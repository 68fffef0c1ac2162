"""Source ranking: Episodes (sessions, trajectories) and documents ranked from their units' hits.

A long session is not judged by one embedding of its first 256 word pieces: every turn is its own unit in
the vector and BM25 legs and each leg ranks sources by their best unit (max aggregation); the per-leg
source rankings are fused with weighted RRF. The top candidates are then re-ranked by their scores: the
lexical leg scored on whole sources (`graphmem.read.bm25`), the dense leg by the source's best unit
cosine, each min-max normalised over the candidates and summed with the leg weights (`relative_fusion`),
so a leg's margin between two sources counts, not only their order. Episodic units that are whole
documents are their own source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.bm25 import bm25_scores
from graphmem.read.fusion import RRF_K, leg_weight
from graphmem.read.legs.base import LegRanking, UnitRow, native_time
from graphmem.read.results import LegSignal, SourceHit

# How many fused candidate sources the session-level BM25 re-scores (at least; 2k when k is larger).
RERANK_POOL = 20


def source_key(row: UnitRow) -> tuple[str, str] | None:
    """(source id, 'episode' | 'document') of an episodic unit; None for facts and procedures."""
    if row.kind != "episodic":
        return None
    if row.episode_id and row.unit_kind != "document":
        return row.episode_id, "episode"
    return row.id, "document"


@dataclass
class _Source:
    id: str
    kind: str
    rrf: float = 0.0
    best_similarity: float = -1.0
    signals: dict[str, LegSignal] = field(default_factory=dict)
    unit_ids: list[str] = field(default_factory=list)
    first_row: UnitRow | None = None


def fuse_sources(rankings: Sequence[LegRanking], weights: Mapping[str, float], k: int = RRF_K) -> list[_Source]:
    sources: dict[str, _Source] = {}
    for ranking in rankings:
        weight = float(weights.get(ranking.leg, 1.0))
        rank = 0
        for row in ranking.rows:
            key = source_key(row)
            if key is None:
                continue
            source = sources.get(key[0])
            if source is None:
                source = sources[key[0]] = _Source(id=key[0], kind=key[1], first_row=row)
            if row.id not in source.unit_ids:
                source.unit_ids.append(row.id)
            if row.similarity is not None:
                source.best_similarity = max(source.best_similarity, row.similarity)
            if ranking.leg in source.signals:
                continue  # max aggregation: a source's rank in a leg is its best unit's
            rank += 1
            source.signals[ranking.leg] = LegSignal(rank=rank, score=row.score)
            source.rrf += weight / (k + rank)
    return sorted(sources.values(), key=lambda s: (-s.rrf, -s.best_similarity, s.id))


def source_texts(store: Store, space: str, scope: AsOf, sources: Sequence[_Source]) -> list[str]:
    """Each source's whole text as valid in scope: an episode's units in order, a document's own text."""
    episode_ids = [s.id for s in sources if s.kind == "episode"]
    parts: dict[str, list[str]] = {}
    if episode_ids:
        for row in store.read("read/episode_units", space=space, episode_ids=episode_ids, **scope.params()):
            parts.setdefault(row["episode_id"], []).append(row.get("text") or "")
    return [
        " ".join(parts.get(s.id, [])) if s.kind == "episode" else (s.first_row.text if s.first_row else "")
        for s in sources
    ]


def min_max(values: Sequence[float]) -> list[float]:
    """Values rescaled to [0, 1] over the list (all 1.0 when they are equal)."""
    if not values:
        return []
    low, high = min(values), max(values)
    if high <= low:
        return [1.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def relative_fusion(legs: Mapping[str, Sequence[float]], weights: Mapping[str, float]) -> list[float]:
    """One score per candidate: each leg's scores min-max normalised over the candidates, weighted, summed."""
    totals: list[float] = []
    for leg, scores in legs.items():
        weight = leg_weight(weights, leg)
        normalised = min_max(scores)
        totals = (
            [t + weight * n for t, n in zip(totals, normalised, strict=True)]
            if totals
            else [weight * n for n in normalised]
        )
    return totals


def rescore_head(
    store: Store,
    space: str,
    scope: AsOf,
    query: str,
    fused: list[_Source],
    weights: Mapping[str, float],
    pool: int,
    *,
    dense: bool,
    fusion: str = "relative",
    k: int = RRF_K,
) -> list[_Source]:
    """The top `pool` sources re-ranked with the lexical leg scored on whole sources; the rest follow.

    `relative`: by `relative_fusion` of whole-source BM25 and (when `dense`) the best unit cosine; `rrf`: the
    lexical rank is replaced by the whole-source BM25 rank in the RRF sum. Either way each head source's
    lexical signal is its whole-source BM25 rank and score."""
    head, tail = fused[:pool], fused[pool:]
    if not head:
        return fused
    scores = bm25_scores(source_texts(store, space, scope, head), query)
    weight = leg_weight(weights, "lexical")
    for source in head:
        old = source.signals.pop("lexical", None)
        if old is not None:
            source.rrf -= weight / (k + old.rank)
    order = sorted(range(len(head)), key=lambda i: -scores[i])
    for rank, i in enumerate((i for i in order if scores[i] > 0), start=1):
        head[i].signals["lexical"] = LegSignal(rank=rank, score=scores[i])
        head[i].rrf += weight / (k + rank)
    if fusion == "relative":
        legs = {"lexical": scores}
        if dense:
            legs["vector"] = [s.best_similarity for s in head]
        floor = max((s.rrf for s in tail), default=0.0)  # every head source stays above the tail
        for source, score in zip(head, relative_fusion(legs, weights), strict=True):
            source.rrf = floor + score
    head.sort(key=lambda s: (-s.rrf, -s.best_similarity, s.id))
    return head + tail


def rank_sources(
    store: Store,
    space: str,
    rankings: Sequence[LegRanking],
    weights: Mapping[str, float],
    k: int,
    *,
    scope: AsOf | None = None,
    query: str | None = None,
    fusion: str = "relative",
) -> list[SourceHit]:
    """The top k sources, with session ids and dates for episodes. With `query` and `scope` and a lexical
    leg, the top candidates are re-ranked with whole-source BM25 (see `rescore_head`, `fusion`)."""
    fused = fuse_sources(rankings, weights)
    legs = {r.leg for r in rankings}
    if query and scope is not None and "lexical" in legs:
        pool = max(RERANK_POOL, 2 * k)
        fused = rescore_head(store, space, scope, query, fused, weights, pool, dense="vector" in legs, fusion=fusion)
    fused = fused[:k]
    episode_ids = [s.id for s in fused if s.kind == "episode"]
    info = {r["id"]: r for r in store.read("read/episodes_info", space=space, episode_ids=episode_ids)}
    hits: list[SourceHit] = []
    for s in fused:
        row = info.get(s.id, {})
        event_at = native_time(row.get("started_at")) if s.kind == "episode" else None
        if event_at is None and s.first_row is not None:
            event_at = s.first_row.event_at
        hits.append(
            SourceHit(
                id=s.id,
                kind=s.kind,
                score=s.rrf,
                signals=s.signals,
                unit_ids=s.unit_ids,
                event_at=event_at,
                session_id=row.get("session_id"),
            )
        )
    return hits
