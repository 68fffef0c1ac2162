"""Neo4j 2026.08.1's filtered vector SEARCH can fail inside the index for minutes after mass deletes; reads
that use it answer through the unfiltered query instead of failing the recall."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from neo4j.exceptions import DatabaseError

from graphmem.db.store import Store, is_search_fault


def neo4j_error(message: str) -> DatabaseError:
    # as the driver builds it from the server's failure message
    return DatabaseError._hydrate_neo4j(code="Neo.DatabaseError.Statement.ExecutionFailed", message=message)


class ScriptedStore(Store):
    """A store whose named reads fail or answer as scripted (no server)."""

    def __init__(self, failures: dict[str, DatabaseError]) -> None:
        self.failures = failures
        self.calls: list[str] = []

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append(name)
        if name in self.failures:
            raise self.failures[name]
        return [{"from": name, **params}]


def test_a_fault_inside_the_vector_index_is_answered_by_the_fallback(caplog):
    fault = neo4j_error("Index 33554431 out of bounds for length 1641")
    assert is_search_fault(fault)
    store = ScriptedStore({"read/tag_fuzzy": fault})
    with caplog.at_level(logging.WARNING):
        rows = store.read_search("read/tag_fuzzy", "read/tag_fuzzy_legacy", space="s1", k=5)
    assert rows == [{"from": "read/tag_fuzzy_legacy", "space": "s1", "k": 5}]
    assert store.calls == ["read/tag_fuzzy", "read/tag_fuzzy_legacy"]
    assert "answered by read/tag_fuzzy_legacy" in caplog.text  # logged, not silent


def test_other_database_errors_are_not_hidden_by_the_fallback():
    other = neo4j_error("Java heap space")
    assert not is_search_fault(other)
    store = ScriptedStore({"read/tag_fuzzy": other})
    with pytest.raises(DatabaseError):
        store.read_search("read/tag_fuzzy", "read/tag_fuzzy_legacy", space="s1")
    assert store.calls == ["read/tag_fuzzy"]
