"""Health of the service and its store, shared by `/healthz` and the GraphQL `health` query."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.api.context import Services
from graphmem.errors import GraphmemError


@dataclass(frozen=True)
class Health:
    status: str  # "ok" | "degraded"
    neo4j_uri: str
    neo4j_version: str | None
    detail: str | None = None


def check_health(services: Services) -> Health:
    store = services.store
    try:
        store.run_read_text("RETURN 1 AS ok")
        return Health("ok", store.uri, store.server.version)
    except GraphmemError as exc:
        return Health("degraded", store.uri, None, str(exc))
