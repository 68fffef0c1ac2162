"""Running the write path's named statements inside one transaction and counting what they created."""

from __future__ import annotations

from typing import Any

from neo4j import ManagedTransaction

from graphmem.db.queries import load_query


def run_counted(tx: ManagedTransaction, name: str, **params: Any) -> tuple[int, int]:
    """Run `cypher/<name>.cypher` in `tx`; returns (nodes created, relationships created)."""
    if not params.get("rows", True):
        return 0, 0
    counters = tx.run(load_query(name), params).consume().counters
    return counters.nodes_created, counters.relationships_created


def run_checked(tx: ManagedTransaction, name: str, **params: Any) -> tuple[int, int, list[str]]:
    """Like `run_counted`, for statements that return the `id`s they found held by other content."""
    if not params.get("rows", True):
        return 0, 0, []
    result = tx.run(load_query(name), params)
    clashes = [record["id"] for record in result]
    counters = result.consume().counters
    return counters.nodes_created, counters.relationships_created, clashes
