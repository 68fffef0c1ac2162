"""Named reads run as one auto-commit statement each; errors the driver calls retryable are retried, as the
managed transactions they replace retried them, and others fail at once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from neo4j import Record
from neo4j.exceptions import ClientError, ServiceUnavailable, TransientError

from graphmem.db.store import Store, record_row
from graphmem.errors import StoreUnavailable


class FakeSession:
    def __init__(self, driver: FakeDriver) -> None:
        self.driver = driver

    def __enter__(self) -> FakeSession:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, text: str, params: dict[str, Any]) -> list[Any]:
        self.driver.runs.append(text)
        if self.driver.failures:
            raise self.driver.failures.pop(0)
        return []


class FakeDriver:
    """Records each statement; raises the scripted failures first, one per run."""

    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.runs: list[str] = []
        self.sessions: list[dict[str, Any]] = []
        self.execute_query_bookmark_manager = object()

    def session(self, **config: Any) -> FakeSession:
        self.sessions.append(config)
        return FakeSession(self)

    def close(self) -> None:
        pass


def store_with(failures: list[Exception], max_retry_time: float = 5.0) -> tuple[Store, FakeDriver]:
    store = Store("bolt://127.0.0.1:1", "neo4j", "pw", max_retry_time=max_retry_time)
    store.driver.close()
    fake = FakeDriver(failures)
    store.driver = fake  # type: ignore[assignment]
    return store, fake


def test_a_read_is_one_statement_in_a_read_session_sharing_the_write_bookmarks() -> None:
    store, fake = store_with([])
    assert store.run_read_text("RETURN 1 AS x") == []
    assert fake.runs == ["RETURN 1 AS x"]
    assert fake.sessions[0]["default_access_mode"] == "READ"
    assert fake.sessions[0]["bookmark_manager"] is fake.execute_query_bookmark_manager


def test_a_transient_error_is_retried_and_the_read_answers() -> None:
    transient = TransientError._hydrate_neo4j(code="Neo.TransientError.General.DatabaseUnavailable", message="x")
    store, fake = store_with([transient, ServiceUnavailable("connection dropped")])
    assert store.run_read_text("RETURN 1 AS x") == []
    assert len(fake.runs) == 3


def test_a_client_error_is_not_retried() -> None:
    wrong = ClientError._hydrate_neo4j(code="Neo.ClientError.Statement.SyntaxError", message="bad")
    store, fake = store_with([wrong, wrong])
    with pytest.raises(ClientError):
        store.run_read_text("RETRUN 1")
    assert len(fake.runs) == 1


def test_retries_stop_after_the_retry_time_and_say_the_store_is_unavailable() -> None:
    store, fake = store_with([ServiceUnavailable("down")] * 100, max_retry_time=0.3)
    with pytest.raises(StoreUnavailable):
        store.run_read_text("RETURN 1")
    assert 2 <= len(fake.runs) < 10


def test_a_record_becomes_a_dict_of_its_values():
    plain = Record([("id", "f1"), ("score", 0.5), ("tags", ["a", "b"]), ("seq", None), ("ok", True)])
    assert record_row(plain) == {"id": "f1", "score": 0.5, "tags": ["a", "b"], "seq": None, "ok": True}
    when = datetime(2024, 1, 1, tzinfo=UTC)
    other = Record([("id", "f1"), ("at", when), ("mixed", [1, when])])
    assert record_row(other) == other.data() == {"id": "f1", "at": when, "mixed": [1, when]}
