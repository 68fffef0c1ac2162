"""Vector leg: native vector index kNN per node kind, filtered inside the index (SEARCH clause) and merged
in one query on 2026.01+, or over-fetching `db.index.vector.queryNodes` plus a filter, one query per kind,
on older servers."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from neo4j.exceptions import DatabaseError

from graphmem.db import Store
from graphmem.db.store import is_search_fault
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import LegRanking, UnitRow, merge_by_score, per_kind

log = logging.getLogger(__name__)
# Older servers filter after the kNN, so they need many more neighbours to keep k in the space.
_LEGACY_OVERFETCH = 20
# The in-index search explores about as many neighbours as it may return. With ten spaces in one index and
# full-precision vectors, a 50-nearest search at 100k facts found 0.989 of the exact top 50 fetching 50
# (5.1 ms), 0.996 fetching 100 (7.4 ms); the binary-quantized index needed 200 for 0.997 (11.8 ms).
_MIN_FETCH = 100


def vector_leg(
    store: Store,
    space: str,
    vector: Sequence[float],
    scope: AsOf,
    kinds: Sequence[str],
    k: int,
    overfetch: int = 4,
) -> LegRanking:
    """The k nearest units of `kinds` valid in `scope`, best first; score = cosine in [-1, 1]."""
    query_vector = store.vector(vector)
    if store.server.supports_search_clause:
        try:
            rows = store.read_rows(
                "read/vector_units",
                vector=query_vector,
                kinds=list(kinds),
                space=space,
                k=k,
                fetch=max(k * overfetch, _MIN_FETCH),
                **scope.params(),
            )
            return LegRanking("vector", [UnitRow.from_record(row) for row in rows])
        except DatabaseError as exc:
            if not is_search_fault(exc):
                raise
            log.warning("vector SEARCH failed inside Neo4j (%s); answered by the per-kind queries", exc.message)
    fetch = k * max(overfetch, _LEGACY_OVERFETCH)

    def nearest(kind: str) -> list[UnitRow]:
        rows = store.read(
            f"read/vector_{kind}_legacy", vector=query_vector, space=space, k=k, fetch=fetch, **scope.params()
        )
        return [UnitRow.from_record(row) for row in rows]

    return merge_by_score("vector", per_kind(kinds, nearest), k)
