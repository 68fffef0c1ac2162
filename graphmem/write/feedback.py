"""Feedback: `record_outcome` folds an observed reward into a procedure's return, counts its use and raises its
importance (graphmem/evolution/importance), all in one transaction."""

from __future__ import annotations

import math
from typing import Any

from neo4j import ManagedTransaction

from graphmem.db import Store
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.importance import refresh_importance

# Rewards are bounded so that a procedure's running mean stays finite (1.7e308 once made `return` infinite).
MAX_REWARD = 1_000_000.0


def record_outcome(store: Store, space: str, procedural_id: str, reward: float) -> dict[str, Any]:
    """Count one use of the procedure, update its `return` to the running mean of the rewards seen (its
    creation-time return counting as the first) and its importance; `reward` is finite and within
    +-MAX_REWARD. Concurrent calls lose no use. Returns `{id, return, uses, importance}`; `NotFound` if no
    such procedure exists in `space`."""
    if not isinstance(procedural_id, str) or not procedural_id.strip():
        raise InvalidInput("procedural_id", "a Procedural id is required")
    if isinstance(reward, bool) or not isinstance(reward, int | float) or not math.isfinite(reward):
        raise InvalidInput("reward", "must be a finite number")
    if abs(reward) > MAX_REWARD:
        raise InvalidInput("reward", f"must be between {-MAX_REWARD:g} and {MAX_REWARD:g} (got {reward:g})")

    def work(tx: ManagedTransaction) -> dict[str, Any] | None:
        rows = store.run_in(tx, "write/record_outcome", space=space, id=procedural_id, reward=float(reward))
        if not rows:
            return None
        importance = refresh_importance(store, tx, space, ids=[procedural_id])
        return {**rows[0], "importance": importance.get(procedural_id)}

    outcome = store.write_transaction(work)
    if outcome is None:
        raise NotFound("procedural_id", f"no Procedural {procedural_id!r} in space {space!r}")
    return outcome
