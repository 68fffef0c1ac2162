"""The Starlette application: GraphQL at /graphql, /healthz and /metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from strawberry.asgi import GraphQL

from graphmem.api.context import Services
from graphmem.api.health import check_health
from graphmem.api.schema import schema


class GraphQLApp(GraphQL):  # type: ignore[type-arg]
    def __init__(self, services: Services) -> None:
        super().__init__(schema)
        self.services = services

    async def get_context(self, request: Any, response: Any = None) -> dict[str, Any]:
        return {"services": self.services, "request": request, "response": response}


def create_app(services: Services) -> Starlette:
    async def healthz(request: Request) -> Response:
        health = await run_in_threadpool(check_health, services)
        body = {"status": health.status, "neo4j": {"uri": health.neo4j_uri, "version": health.neo4j_version}}
        if health.detail:
            body["detail"] = health.detail
        return JSONResponse(body, status_code=200 if health.status == "ok" else 503)

    async def metrics(request: Request) -> Response:
        return PlainTextResponse(f"graphmem_store_queries_total {services.store.queries_run}\n")

    graphql = GraphQLApp(services)
    routes = [
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route("/graphql", graphql, methods=["GET", "POST"]),
    ]
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        services.store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.services = services
    return app
