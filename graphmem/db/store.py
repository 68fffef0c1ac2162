"""The one gateway to Neo4j: named, parameterised queries, read routing, server-version gates.

Reads run in read transactions (`routing_=READ`), so a cluster serves them from secondaries; writes run
in managed write transactions, which the driver retries on transient errors with a bounded back-off.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

import neo4j
import numpy as np
from neo4j import GraphDatabase, ManagedTransaction, NotificationDisabledClassification, RoutingControl
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DatabaseError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)
from neo4j.vector import Vector

from graphmem.config import Settings
from graphmem.db.queries import load_query
from graphmem.db.query_params import check_parameters, query_parameters
from graphmem.db.wire_times import wire_params
from graphmem.errors import ConfigError, StoreUnavailable

T = TypeVar("T")
# Values a row can hold as the driver decoded them: `Record.data()` would only copy them (it exists to turn
# nodes, relationships and paths into dicts), and its generic walk was a sixth of a recall's Python time.
_PLAIN_TYPES = frozenset((str, int, float, bool, type(None)))


def record_row(record: neo4j.Record) -> dict[str, Any]:
    """A record as a dict: plain values (and lists of them) as they are, anything else through `data()`."""
    # The tuple's own values: `Record.__iter__` is a Python generator (it checks each value for a broken
    # hydration), twice per record was a tenth of a recall's Python time. A broken value is no plain type,
    # so it still goes through `data()`, which raises as before.
    plain = list(tuple.__iter__(record))
    for value in plain:
        kind = type(value)
        if kind not in _PLAIN_TYPES and (kind is not list or any(type(v) not in _PLAIN_TYPES for v in value)):
            return record.data()
    return dict(zip(record.keys(), plain, strict=True))


def _first_value(record: neo4j.Record) -> Any:
    return record[0]


log = logging.getLogger(__name__)
# A query vector as a parameter (see `Store.vector`).
QueryVector = Vector | list[float]

# The earliest server with native vector indexes that graphmem's schema needs.
MIN_VECTOR_INDEX_VERSION = (5, 13)
# The first server with the Cypher 25 `SEARCH` clause and in-index vector filters.
MIN_SEARCH_CLAUSE_VERSION = (2026, 1)
# The first Bolt protocol with the Cypher VECTOR type (Neo4j 2025.10+).
MIN_VECTOR_TYPE_BOLT = (6, 0)


@dataclass(frozen=True)
class ServerInfo:
    version: str
    edition: str
    bolt: tuple[int, int] = (0, 0)

    @property
    def version_tuple(self) -> tuple[int, int]:
        parts = [int(p) for p in self.version.split("-")[0].split(".")[:2] if p.isdigit()]
        return (parts[0], parts[1] if len(parts) > 1 else 0)

    @property
    def supports_vector_index(self) -> bool:
        return self.version_tuple >= MIN_VECTOR_INDEX_VERSION

    @property
    def supports_search_clause(self) -> bool:
        """Cypher 25 `SEARCH ... IN (VECTOR INDEX ... WHERE ...)` with filters evaluated inside the index."""
        return self.version_tuple >= MIN_SEARCH_CLAUSE_VERSION

    @property
    def supports_vector_type(self) -> bool:
        """The Cypher VECTOR type on the wire (Bolt 6): vectors travel as packed bytes, not lists of floats."""
        return self.bolt >= MIN_VECTOR_TYPE_BOLT


class Store:
    """A Neo4j driver plus the graphmem conventions for running named queries."""

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        database: str = "neo4j",
        *,
        connection_timeout: float = 5.0,
        acquisition_timeout: float = 10.0,
        max_retry_time: float = 5.0,
    ) -> None:
        """The timeouts bound how long a call waits while Neo4j is unreachable (the driver's own defaults,
        30 s each, made requests hang 31-62 s before "store unavailable")."""
        self.uri = uri
        self.database = database
        self.driver = GraphDatabase.driver(
            uri,
            auth=(user, password),
            max_connection_pool_size=64,
            connection_timeout=connection_timeout,
            connection_acquisition_timeout=acquisition_timeout,
            max_transaction_retry_time=max_retry_time,
            notifications_min_severity="WARNING",  # "index already exists" is not news on every start
            # Optional properties are the norm (a document has no `action`); "property does not exist"
            # would otherwise be logged on every query of a fresh database.
            notifications_disabled_classifications=[NotificationDisabledClassification.UNRECOGNIZED],
        )
        self.max_retry_time = max_retry_time
        self._count_lock = threading.Lock()
        self.queries_run = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> Store:
        timeouts = {
            "connection_timeout": settings.neo4j_connection_timeout_s,
            "acquisition_timeout": settings.neo4j_acquisition_timeout_s,
            "max_retry_time": settings.neo4j_max_retry_time_s,
        }
        if settings.neo4j_uri:
            return cls(
                settings.neo4j_uri,
                settings.neo4j_user,
                settings.neo4j_password or "",
                settings.neo4j_database,
                **timeouts,
            )
        from graphmem.db.embedded import EmbeddedNeo4j

        embedded = EmbeddedNeo4j(settings)
        return cls(settings.embedded_uri, "neo4j", embedded.password(), settings.neo4j_database, **timeouts)

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- errors ----------------------------------------------------------------------------------
    @contextmanager
    def _translated_errors(self) -> Iterator[None]:
        try:
            yield
        except AuthError as exc:
            raise StoreUnavailable(
                f"Neo4j at {self.uri} refused the credentials: check NEO4J_USER and NEO4J_PASSWORD"
            ) from exc
        except (ServiceUnavailable, SessionExpired) as exc:
            raise StoreUnavailable(
                f"Neo4j at {self.uri} is unavailable: start it with 'graphmem neo4j start' or check NEO4J_URI"
            ) from exc

    def verify(self) -> ServerInfo:
        """Connect, authenticate and check the server can hold graphmem's vector indexes."""
        with self._translated_errors():
            self.driver.verify_connectivity()
        info = self.server
        if not info.supports_vector_index:
            raise ConfigError(
                f"Neo4j {info.version} at {self.uri} is too old: graphmem needs 5.13+ for native vector indexes"
            )
        return info

    @cached_property
    def server(self) -> ServerInfo:
        """Detected once per Store; features are gated on it."""
        rows = self.run_read_text("CALL dbms.components() YIELD name, versions, edition RETURN *")
        kernel = next((r for r in rows if r["name"] == "Neo4j Kernel"), rows[0])
        with self._translated_errors():
            bolt = self.driver.get_server_info().protocol_version
        return ServerInfo(version=kernel["versions"][0], edition=kernel["edition"], bolt=bolt)

    def vector(self, values: Sequence[float]) -> QueryVector:
        """A query vector as a parameter: a float64 Cypher VECTOR where the server has the type (the same
        numbers, but the pure-Python driver packs it ~10x faster than a list of floats), else a list."""
        if self.server.supports_vector_type:
            # the same float64 bytes as `Vector.from_native(values, "f64")`, packed by numpy in a tenth of the time
            return Vector.from_numpy(np.asarray(values, dtype=np.float64))
        return list(values)

    # --- running queries -------------------------------------------------------------------------
    def _count(self, n: int = 1) -> None:
        with self._count_lock:
            self.queries_run += n

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run the named read query in a read-routed transaction; rows as dicts. Parameters the file's
        header declares (`Parameters: $since (datetime)`) are checked first: `InvalidInput` names a wrong one."""
        check_parameters(query_parameters(name), params)
        return self.run_read_text(load_query(name), **params)

    def read_rows(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run a named read query that returns its rows as one list of maps of plain values (one column,
        `rows`): the driver builds one record, not one per row (~15 µs each in pure Python), and the maps come
        as it decoded them. Parameters are checked as `read` checks them."""
        check_parameters(query_parameters(name), params)
        records = self._run_read(load_query(name), params, _first_value)
        return list(records[0]) if records else []

    def read_search(self, name: str, fallback: str, **params: Any) -> list[dict[str, Any]]:
        """Run a named query that uses the SEARCH clause; if Neo4j fails inside the vector index (see
        `is_search_fault`), answer with `fallback`, the same query without in-index filters."""
        try:
            return self.read(name, **params)
        except DatabaseError as exc:
            if not is_search_fault(exc):
                raise
            log.warning("vector SEARCH failed inside Neo4j (%s); answered by %s", exc.message, fallback)
            return self.read(fallback, **params)

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run the named query in one managed write transaction (retried on transient errors)."""
        return self.run_write_text(load_query(name), **params)

    def run_read_text(self, text: str, **params: Any) -> list[dict[str, Any]]:
        """One read statement as an auto-commit query in a read-routed session: one round trip where a
        managed transaction (`execute_query`) takes two (RUN, then COMMIT). It shares `execute_query`'s
        bookmarks, so it sees the writes made before it; retried like a managed read (see `_retrying`)."""
        return self._run_read(text, params, record_row)

    def _run_read(self, text: str, params: dict[str, Any], convert: Callable[[neo4j.Record], T]) -> list[T]:
        self._count()
        # time parameters packed once per value (`wire_times`), once the server's Bolt version is known
        detected = self.__dict__.get("server")
        if detected is not None:
            params = wire_params(params, detected.bolt)

        def run() -> list[T]:
            with self.driver.session(
                database=self.database,
                default_access_mode=neo4j.READ_ACCESS,
                bookmark_manager=self.driver.execute_query_bookmark_manager,
            ) as session:
                return [convert(r) for r in session.run(text, params)]

        with self._translated_errors():
            return self._retrying(run)

    def _retrying(self, work: Callable[[], T]) -> T:
        """`work()`, run again after an error the driver calls retryable (a dropped connection, a transient
        server error), with a growing pause, until `max_retry_time` has passed, as managed transactions are."""
        deadline = time.monotonic() + self.max_retry_time
        pause = 0.05
        while True:
            try:
                return work()
            except (Neo4jError, DriverError) as exc:
                if not exc.is_retryable() or time.monotonic() + pause > deadline:
                    raise
                log.info("read retried after %s", type(exc).__name__)
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def run_write_text(self, text: str, **params: Any) -> list[dict[str, Any]]:
        self._count()
        with self._translated_errors():
            records, _, _ = self.driver.execute_query(
                text, params, routing_=RoutingControl.WRITE, database_=self.database
            )
        return [record_row(r) for r in records]

    def write_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Several statements in one transaction: all land or none does. `work` may be retried."""
        with self._translated_errors(), self.driver.session(database=self.database) as session:
            return session.execute_write(work)

    def read_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        with (
            self._translated_errors(),
            self.driver.session(database=self.database, default_access_mode=neo4j.READ_ACCESS) as session,
        ):
            return session.execute_read(work)

    def run_in(self, tx: ManagedTransaction, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run a named query inside a transaction opened by `write_transaction`/`read_transaction`."""
        self._count()
        return [record_row(r) for r in tx.run(load_query(name), params)]

    def explain_query_type(self, text: str, **params: Any) -> str:
        """The server's classification of a query without running it: r, rw, w or s (schema)."""
        self._count()
        with self._translated_errors():
            try:
                _, summary, _ = self.driver.execute_query(
                    "EXPLAIN " + text, params, routing_=RoutingControl.READ, database_=self.database
                )
            except ClientError:
                raise
        return str(summary.query_type)


def is_search_fault(exc: DatabaseError) -> bool:
    """Neo4j 2026.08.1's filtered vector search fails for a while after many indexed nodes are deleted:
    a SEARCH whose in-index filter names a space with no nodes in that index raised
    `Neo.DatabaseError.Statement.ExecutionFailed: Index 33554431 out of bounds for length 1641` for minutes
    after a 110k-node space was dropped, then answered again. The unfiltered index search is unaffected."""
    return "out of bounds" in (exc.message or "")
