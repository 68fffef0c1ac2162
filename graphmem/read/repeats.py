"""Folding repeats: the same text stored again (its own id, author or date, linked `(later)-[:REPEATS]->(first)`)
answers once. A hit whose unit repeats another hit of the same result is folded into the earliest of them, at
the best rank of the group; the kept hit lists the folded ids in `repeats`."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from graphmem.db import Store
from graphmem.read.results import RecallHit

EPISODIC = "episodic"


def fold_repeats(store: Store, space: str, hits: list[RecallHit]) -> list[RecallHit]:
    """`hits` in rank order, with each group of repeats of one text folded into its earliest unit."""
    ids = [h.id for h in hits if h.kind == EPISODIC]
    if len(ids) < 2:
        return hits
    first_of = {r["id"]: r["first_id"] for r in store.read("read/repeats_among", space=space, ids=ids)}
    return fold(hits, first_of)


def fold(hits: list[RecallHit], first_of: dict[str, str]) -> list[RecallHit]:
    """The pure fold: `first_of` maps a unit id to the unit it repeats."""
    groups: dict[str, list[RecallHit]] = {}
    for hit in hits:
        key = first_of.get(hit.id, hit.id) if hit.kind == EPISODIC else f"{hit.kind}:{hit.id}"
        groups.setdefault(key, []).append(hit)
    folded: list[RecallHit] = []
    emitted: set[str] = set()
    for hit in hits:
        key = first_of.get(hit.id, hit.id) if hit.kind == EPISODIC else f"{hit.kind}:{hit.id}"
        if key in emitted:
            continue
        emitted.add(key)
        members = groups[key]
        if len(members) == 1:
            folded.append(hit)
            continue
        earliest = min(members, key=_when)
        others = tuple(m.id for m in members if m is not earliest)
        folded.append(replace(earliest, score=hit.score, repeats=(*earliest.repeats, *others)))
    return folded


def _when(hit: RecallHit) -> tuple[datetime, str]:
    return (hit.event_at or hit.valid_from or datetime.max.replace(tzinfo=UTC), hit.id)
