"""The GraphQL schema (strawberry). Roots are added here as the read, write and time paths land."""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from graphmem.api.context import Services
from graphmem.api.health import check_health


@strawberry.type(description="Service and store health")
class HealthStatus:
    status: str = strawberry.field(description="ok, or degraded when Neo4j cannot be reached")
    neo4j_uri: str
    neo4j_version: str | None
    detail: str | None


@strawberry.type
class Query:
    @strawberry.field(description="Is the service up, and can it reach Neo4j?")
    async def health(self, info: Info) -> HealthStatus:
        services: Services = info.context["services"]
        health = await run_in_threadpool(check_health, services)
        return HealthStatus(
            status=health.status,
            neo4j_uri=health.neo4j_uri,
            neo4j_version=health.neo4j_version,
            detail=health.detail,
        )


schema = strawberry.Schema(query=Query)
