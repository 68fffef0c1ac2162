"""Consolidation candidates: pairs of active nodes worth comparing, found through shared tags and the vector
indexes — bounded per run (hub tags skipped, k neighbours for at most N nodes, at most M pairs), never a
cross product of the space.
"""

from __future__ import annotations

from typing import Any

from graphmem.db import Store
from graphmem.evolution.records import native_time
from graphmem.pairs import CandidatePair, PairSide

LEGACY_OVERFETCH = 10


def _cosine_from_score(score: float | None) -> float | None:
    """Neo4j's cosine scores are (1 + cos) / 2; classifiers think in plain cosine."""
    return None if score is None else 2.0 * float(score) - 1.0


def _side(raw: dict[str, Any]) -> PairSide:
    valid_from = native_time(raw["valid_from"])
    assert valid_from is not None, "a versioned node always has valid_from"
    return PairSide(
        id=raw["id"],
        text=raw["text"] or "",
        valid_from=valid_from,
        recorded_at=native_time(raw["recorded_at"]),
        author=raw["author"],
        credibility=raw["credibility"],
        tags=tuple(sorted(raw["tags"] or ())),
    )


def candidate_ids(
    store: Store,
    space: str,
    *,
    max_pairs: int,
    max_nodes: int,
    neighbours: int,
    min_cosine: float,
    max_tag_degree: int,
) -> list[tuple[str, str]]:
    """Distinct (a_id, b_id) pairs, a_id < b_id: shared-tag pairs first, then vector neighbours."""
    seen: dict[tuple[str, str], None] = {}
    for row in store.read(
        "write/consolidate_candidates_tags", space=space, max_tag_degree=max_tag_degree, limit=max_pairs
    ):
        seen[(row["a_id"], row["b_id"])] = None
    suffix = "" if store.server.supports_search_clause else "_legacy"
    min_score = (1.0 + min_cosine) / 2.0
    for label in ("semantic", "procedural"):
        if len(seen) >= max_pairs:
            break
        rows = store.read(
            f"write/consolidate_neighbours_{label}{suffix}",
            space=space,
            max_nodes=max_nodes,
            k=neighbours + 1,  # the node itself comes back as its own nearest neighbour
            min_score=min_score,
            overfetch=LEGACY_OVERFETCH,
        )
        for row in sorted(rows, key=lambda r: -r["score"]):
            a, b = sorted((row["a_id"], row["b_id"]))
            seen[(a, b)] = None
    return list(seen)[:max_pairs]


def load_pairs(store: Store, space: str, ids: list[tuple[str, str]]) -> list[CandidatePair]:
    """The classifier's view of each pair (pairs whose nodes are gone or no longer active are dropped)."""
    if not ids:
        return []
    rows = store.read("write/consolidate_pairs", space=space, pairs=[{"a_id": a, "b_id": b} for a, b in ids])
    return [
        CandidatePair(
            label=row["label"],
            a=_side(row["a"]),
            b=_side(row["b"]),
            similarity=_cosine_from_score(row["score"]),
            shared_tags=int(row["shared_tags"]),
            shares_episode=bool(row["shares_episode"]),
        )
        for row in rows
    ]
