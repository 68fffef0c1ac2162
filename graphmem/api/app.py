"""The Starlette application: GraphQL at /graphql, /healthz and /metrics.

The app holds no state that changes answers (data and, by default with an external Neo4j, API keys live in
the database; see docs/graphql.md "More than one instance"), so replicas behind a load balancer scale out.
"""

from __future__ import annotations

import contextlib
import json
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any

from cross_web import HTTPException
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL

from graphmem.api.auth import Principal
from graphmem.api.context import RequestContext, Services
from graphmem.api.graphiql import ASSET_PATH, asset_endpoint, graphiql_page
from graphmem.api.health import check_health
from graphmem.api.loaders import Loaders
from graphmem.api.schema import build_schema
from graphmem.errors import Forbidden, GraphmemError, StoreUnavailable
from graphmem.jsonvalue import json_depth
from graphmem.logs import REQUEST_ID
from graphmem.observability import MEMORY_METRICS
from graphmem.ui.explorer_app import explorer_routes
from graphmem.ui.neo4j_browser import browser_routes

log = logging.getLogger("graphmem.api")


class GraphQLApp(GraphQL[RequestContext, None]):
    """Strawberry's ASGI view with graphmem's per-request context: key check, loaders, request id."""

    def __init__(self, services: Services) -> None:
        super().__init__(build_schema(services.settings), graphql_ide="graphiql")
        self.services = services

    def decode_json(self, data: str | bytes) -> object:
        """A body that is not UTF-8 is a client error (400 through strawberry's JSON error path), not a 500."""
        if isinstance(data, bytes):
            try:
                data = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise json.JSONDecodeError(f"request body is not valid UTF-8 ({exc.reason})", "", exc.start) from None
        try:
            value = super().decode_json(data)
        except RecursionError:
            raise HTTPException(400, TOO_DEEP_MESSAGE) from None
        if json_depth(value, MAX_BODY_DEPTH) > MAX_BODY_DEPTH:  # before anything downstream can recurse on it
            raise HTTPException(400, TOO_DEEP_MESSAGE)
        try:  # "\ud800" escapes decode to text no UTF-8 store can hold: refuse them here, by name
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise json.JSONDecodeError("request body holds an unpaired UTF-16 surrogate", "", 0) from None
        return value

    def encode_json(self, data: object) -> str | bytes:
        """The response, or an error naming GRAPHMEM_API_MAX_RESPONSE_BYTES when it is larger."""
        text = super().encode_json(data)
        limit = self.services.settings.api_max_response_bytes
        if len(text) <= limit:
            return text
        log.warning("request %s: response of %d bytes refused (limit %d)", REQUEST_ID.get(), len(text), limit)
        self.services.metrics.count_error("RESPONSE_TOO_LARGE")
        message = (
            f"the response is {len(text):,} bytes, over the limit of {limit:,} (GRAPHMEM_API_MAX_RESPONSE_BYTES): "
            "ask for fewer fields or smaller pages (first)"
        )
        return json.dumps(
            {"data": None, "errors": [{"message": message, "extensions": {"code": "RESPONSE_TOO_LARGE"}}]}
        )

    async def render_graphql_ide(self, request: Any) -> Response:
        """GraphiQL from local assets (see graphmem.api.graphiql), never strawberry's CDN page."""
        return graphiql_page(self.services.settings)

    async def get_context(self, request: Any, response: Any = None) -> RequestContext:
        services = self.services
        services.metrics.count_request()
        request_id = uuid.uuid4().hex[:16]
        REQUEST_ID.set(request_id)
        if response is not None:
            response.headers["x-request-id"] = request_id
        client = request.client.host if getattr(request, "client", None) else "unknown"
        principal: Principal | None = None
        auth_error: GraphmemError | None = None
        try:
            principal = services.keyring.authenticate(request.headers.get("authorization"), client)
        except Forbidden as exc:
            auth_error = exc
            services.metrics.count_auth_failure()
        except StoreUnavailable as exc:  # the database holds the keys and cannot be reached
            auth_error = exc
        except GraphmemError as exc:  # an unreadable key file: refuse, and tell the operator
            log.error("request %s: API keys unavailable: %s", request_id, exc)
            auth_error = Forbidden("API keys are unavailable on the server; see its log")
        return RequestContext(
            services=services,
            request=request,
            response=response,
            request_id=request_id,
            principal=principal,
            auth_error=auth_error,
            loaders=Loaders(services.store),
        )


# Far deeper than any request graphmem takes (a document's metadata, at most 20 levels, sits ~5 deep), and
# far from Python's recursion limit: deeper metadata still gets its field-named error.
MAX_BODY_DEPTH = 200
TOO_DEEP_MESSAGE = f"request body nests more than {MAX_BODY_DEPTH} levels of objects and lists"


class _BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuses request bodies over `max_bytes` with 413, whether or not Content-Length is sent."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _response(self) -> Response:
        message = f"request body exceeds {self.max_bytes} bytes (GRAPHMEM_API_MAX_BODY_BYTES)"
        return JSONResponse({"errors": [{"message": message, "extensions": {"code": "PAYLOAD_TOO_LARGE"}}]}, 413)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._response()(scope, receive, send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLarge:
            if not started:
                await self._response()(scope, receive, send)


def create_app(services: Services) -> Starlette:
    async def healthz(request: Request) -> Response:
        health = await run_in_threadpool(check_health, services)
        body: dict[str, Any] = {
            "status": health.status,
            "neo4j": {"version": health.neo4j_version},  # no address: /healthz needs no key
        }
        if health.detail:
            body["detail"] = health.detail
        return JSONResponse(body, status_code=200 if health.status == "ok" else 503)

    async def metrics(request: Request) -> Response:
        return PlainTextResponse(services.metrics.render(services.store) + MEMORY_METRICS.render())

    graphql = BodyLimit(GraphQLApp(services), services.settings.api_max_body_bytes)
    routes = [
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        Route(ASSET_PATH + "/{name}", asset_endpoint(services.settings)),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        *browser_routes(services.settings, services.store.uri),
        *explorer_routes(),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # load (and warm) the embedder before the first request, which would otherwise wait for it
        await run_in_threadpool(lambda: services.embedder)
        yield
        services.store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.services = services
    return app
