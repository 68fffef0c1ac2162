"""Importance, the value model's fifth factor: `importance = weight x (sources + uses)`.

`weight` is the caller's weight in [0, 1] given at write time (1 by default), `sources` the independent pieces
of evidence supporting the node (distinct source documents or episodes, at least 1) and `uses` the outcomes
recorded for it (`record_outcome`). Stored on the node, it is recomputed in Cypher
(cypher/write/importance_refresh) in the transaction that changes an input; the read path maps it to
importance / (1 + importance), bounded in [0, 1) and monotone in each input.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from neo4j import ManagedTransaction

from graphmem.db import Store
from graphmem.errors import InvalidInput

DEFAULT_WEIGHT = 1.0


def importance_weight(raw: Mapping[str, Any], where: str) -> float:
    """`raw["importance"]` as a weight in [0, 1] (DEFAULT_WEIGHT when absent); `InvalidInput` naming
    `<where>.importance` otherwise."""
    value = raw.get("importance")
    if value is None:
        return DEFAULT_WEIGHT
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput(f"{where}.importance", "must be a number between 0 and 1")
    if not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{where}.importance", f"must be between 0 and 1 (got {value:g})")
    return float(value)


def refresh_importance(
    store: Store, tx: ManagedTransaction, space: str, *, ids: Sequence[str] = (), units: Sequence[str] = ()
) -> dict[str, float]:
    """Recompute, in `tx`, the importance of the nodes in `ids` and of those evidenced by the Episodic `units`;
    returns id -> importance."""
    if not ids and not units:
        return {}
    rows = store.run_in(tx, "write/importance_refresh", space=space, ids=list(ids), units=list(units))
    return {row["id"]: float(row["importance"]) for row in rows}
