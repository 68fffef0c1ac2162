"""Health of the service and its store, shared by `/healthz` and the GraphQL `health` query.

The probe is one auto-commit `RETURN 1` (no driver retries), so while Neo4j is down `/healthz` answers
"degraded" at once instead of after the driver's retry window, and "ok" again as soon as Neo4j is back.
Health needs no key, so what it says never names the store's address (`neo4j_uri` is for the operator).
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.api.context import Services
from graphmem.api.errors import public_message
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
        with store.driver.session(database=store.database) as session:
            session.run("RETURN 1 AS ok").consume()
        return Health("ok", store.uri, store.server.version)
    except GraphmemError as exc:
        return Health("degraded", store.uri, None, public_message(exc))
    except Exception as exc:  # any driver failure means the store is not usable right now
        return Health("degraded", store.uri, None, f"Neo4j is unavailable ({type(exc).__name__})")
