"""Datetime parameters packed once per value: the driver turns every `datetime` parameter into its Bolt
structure in pure Python (~130 µs each), and a recall sends the same three (as_of, known_at, open_after) with
each of its statements. The structure is the driver's own (its Bolt 5+ dehydration), so Neo4j receives the
same value; other values, and servers before Bolt 5, go through the driver as they are.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

# The driver's own datetime dehydration for Bolt 5 and 6 (neo4j is pinned in requirements.lock; the round
# trip through Neo4j is checked by tests/integration/test_wire_times.py).
from neo4j._codec.hydration.v2.temporal import dehydrate_datetime

MIN_BOLT = (5, 0)


@lru_cache(maxsize=256)
def _packed(value: datetime, zone: tzinfo | None, fold: int) -> Any:
    # `zone` and `fold` are part of the key: equal instants in two zones are equal datetimes, but not one wire value
    return dehydrate_datetime(value)


def wire_params(params: dict[str, Any], bolt: tuple[int, int]) -> dict[str, Any]:
    """`params` with each top-level `datetime` value as its cached Bolt structure (Bolt 5+; else unchanged)."""
    if bolt < MIN_BOLT:
        return params
    return {
        name: _packed(value, value.tzinfo, value.fold) if type(value) is datetime else value
        for name, value in params.items()
    }
