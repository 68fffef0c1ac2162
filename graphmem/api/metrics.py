"""Counters for `/metrics` (Prometheus text format): requests, errors by code, store queries."""

from __future__ import annotations

import threading
from collections import Counter

from graphmem.db import Store


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests = 0
        self.errors: Counter[str] = Counter()
        self.auth_failures = 0

    def count_request(self) -> None:
        with self._lock:
            self.requests += 1

    def count_error(self, code: str) -> None:
        with self._lock:
            self.errors[code] += 1

    def count_auth_failure(self) -> None:
        with self._lock:
            self.auth_failures += 1

    def render(self, store: Store, store_up: bool | None = None) -> str:
        lines = [
            "# TYPE graphmem_graphql_requests_total counter",
            f"graphmem_graphql_requests_total {self.requests}",
            "# TYPE graphmem_graphql_errors_total counter",
            *(f'graphmem_graphql_errors_total{{code="{code}"}} {n}' for code, n in sorted(self.errors.items())),
            "# TYPE graphmem_auth_failures_total counter",
            f"graphmem_auth_failures_total {self.auth_failures}",
            "# TYPE graphmem_store_queries_total counter",
            f"graphmem_store_queries_total {store.queries_run}",
        ]
        if store_up is not None:
            lines += ["# TYPE graphmem_store_up gauge", f"graphmem_store_up {int(store_up)}"]
        return "\n".join(lines) + "\n"
