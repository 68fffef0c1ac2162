"""Passage bridges: where the top candidates rest on undated documents (passages of reference text), rank
passages rather than units, and lift the passages the top ones name (a second hop). Off by default.

Every candidate in the window votes for its passage: best unit plus `vote` x the rest. Each of the best
`seeds` passages reaches the passages whose subject it names (`cypher/read/passage_bridges.cypher`); the
`per_seed` nearest the question gain `weight` x the seed's strength, up to just below the seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphmem.db import Store
from graphmem.read.fusion import Fused
from graphmem.read.leg_run import LegRun
from graphmem.read.legs.base import UnitRow

_BELOW = 1e-4  # how far below its seed a bridged passage stays


@dataclass(frozen=True)
class BridgeSettings:
    """The stage's knobs (see `graphmem.config`: GRAPHMEM_READ_BRIDGE_*)."""

    weight: float
    seeds: int
    window: int
    max_degree: int
    vote: float
    per_seed: int = 1

    @property
    def on(self) -> bool:
        return self.window > 0 and (self.weight > 0 or self.vote > 0)


@dataclass(frozen=True)
class Link:
    """A passage reached from seed number `seed` (0 = best) through shared tags weighing `link`."""

    seed: int
    passage: str
    link: float
    similarity: float


def passage_scores(units: Sequence[tuple[str, float]], vote: float) -> dict[str, float]:
    """Each passage's score from (passage, unit score) pairs, best unit first: its best unit plus `vote`
    times the sum of its other units."""
    best: dict[str, float] = {}
    rest: dict[str, float] = {}
    for passage, score in units:
        if passage not in best:
            best[passage] = score
        elif score > best[passage]:
            rest[passage] = rest.get(passage, 0.0) + best[passage]
            best[passage] = score
        else:
            rest[passage] = rest.get(passage, 0.0) + score
    return {p: best[p] + vote * rest.get(p, 0.0) for p in best}


def bridge_bonus(
    seed_scores: Sequence[float],
    links: Sequence[Link],
    weight: float,
    per_seed: int,
    scores: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """The score each reached passage gains: `weight` x its seed's strength (the seed's score over the
    first seed's) for the `per_seed` passages of each seed nearest the question, the best over its seeds.
    A hop follows the passage it was reached from: the gain stops just below the seed's score (`scores`:
    the passages' own scores, 0 when absent)."""
    if not seed_scores or seed_scores[0] <= 0:
        return {}
    own = scores or {}
    bonus: dict[str, float] = {}
    by_seed: dict[int, list[Link]] = {}
    for link in links:
        if 0 <= link.seed < len(seed_scores):
            by_seed.setdefault(link.seed, []).append(link)
    for seed, reached in by_seed.items():
        strength = max(0.0, seed_scores[seed] / seed_scores[0])
        for link in sorted(reached, key=lambda r: (-r.similarity, r.passage))[:per_seed]:
            room = seed_scores[seed] - _BELOW - own.get(link.passage, 0.0)
            gain = min(weight * strength, room)
            if gain > bonus.get(link.passage, 0.0):
                bonus[link.passage] = gain
    return bonus


def rerank(
    ranked: list[Fused],
    passage_of: Mapping[str, str],
    bonus: Mapping[str, float],
    scores: Mapping[str, float],
    reached: Mapping[str, UnitRow],
    window: int,
) -> list[Fused]:
    """The window's units re-scored by their passage (score plus bonus), reached passages not in the list
    added as their own units, the units past the window after them as they were."""
    head = ranked[:window]
    present = {f.row.id for f in head}
    out: list[Fused] = []
    for f in head:
        passage = passage_of.get(f.row.id)
        if passage is None:
            out.append(f)
            continue
        gain = bonus.get(passage, 0.0)
        parts = f.row.extra.setdefault("value", {})
        parts["passage"] = scores[passage]
        if gain:
            parts["bridge"] = gain
        # units of one passage stay together, in their own order
        f.rrf = scores[passage] + gain + 1e-6 * f.rrf
        out.append(f)
    for passage, row in reached.items():
        if passage in present or passage not in bonus:
            continue
        gain = bonus[passage]
        row.extra["value"] = {"bridge": gain}
        out.append(Fused(row=row, rrf=gain))
    added = {f.row.id for f in out}
    out += [f for f in ranked[window:] if f.row.id not in added]
    return sorted(out, key=lambda f: (-f.rrf, -(f.row.similarity or 0.0), f.row.id))


def bridge_passages(
    store: Store, options: BridgeSettings, space: str, run: LegRun, ranked: list[Fused], vector: Sequence[float]
) -> list[Fused]:
    """`ranked` re-ranked by passage with bridged passages lifted; unchanged unless the window's candidates
    rest on undated documents only."""
    if not options.on or not ranked:
        return ranked
    head = ranked[: options.window]
    rows = store.read("read/passage_of_units", space=space, ids=[f.row.id for f in head])
    if not rows or any(r["dated"] for r in rows):
        return ranked
    documents: dict[str, list[str]] = {}
    for r in rows:
        documents.setdefault(r["id"], []).append(r["document_id"])
    # a fact resting on several passages votes for the first of them
    passage_of = {unit: sorted(docs)[0] for unit, docs in documents.items()}
    scores = passage_scores([(passage_of[f.row.id], f.rrf) for f in head if f.row.id in passage_of], options.vote)
    order = sorted(scores, key=lambda p: -scores[p])
    seeds = order[: options.seeds]
    bonus: dict[str, float] = {}
    reached: dict[str, UnitRow] = {}
    if seeds and options.weight > 0:
        found = store.read(
            "read/passage_bridges",
            space=space,
            seeds=seeds,
            max_degree=options.max_degree,
            vector=list(vector),
            **run.scope.params(),
        )
        links = [Link(int(r["position"]), r["id"], float(r["link"]), float(r["similarity"] or 0.0)) for r in found]
        links = [link for link in links if link.passage not in seeds]
        bonus = bridge_bonus([scores[s] for s in seeds], links, options.weight, options.per_seed, scores)
        for r in found:
            if r["id"] not in reached and r["id"] not in scores:
                reached[r["id"]] = UnitRow.from_record(dict(r))
    return rerank(ranked, passage_of, bonus, scores, reached, options.window)
