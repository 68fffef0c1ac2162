"""Subgoal routing: the next subgoal finds its nearest Subgoal nodes, whose HAS_PROCEDURE edges give the
candidate procedures; the value model (relevance, return, recency, uses) ranks them, not cosine alone."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import LegRanking, UnitRow

_LEGACY_FETCH = 100


def subgoal_leg(
    store: Store, space: str, vector: Sequence[float], scope: AsOf, k: int, subgoals: int = 5
) -> LegRanking:
    """Procedures of the `subgoals` nearest Subgoal nodes valid in scope; score = best subgoal cosine."""
    params = dict(vector=store.vector(vector), subgoals=subgoals, fetch=_LEGACY_FETCH, k=k, **scope.params())
    if store.server.supports_search_clause:
        rows = store.read_search("read/subgoal_route", "read/subgoal_route_legacy", space=space, **params)
    else:
        rows = store.read("read/subgoal_route_legacy", space=space, **params)
    return LegRanking("subgoal", [UnitRow.from_record(r) for r in rows])
