"""The GraphQL side of `graphmem bench perf`: the real Starlette app on a uvicorn thread bound to a free
loopback port, sharing the benchmark's store and embedder (so query embedding stays excluded), called over
real HTTP with a read key made for the run. Each operation is one GraphQL POST whose selection a client
would make, and its timing includes parsing, auth, resolvers, JSON encoding and the socket round trip.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn

from graphmem.api import Services, create_app
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder

RECALL = """query($space: String!, $q: String!, $asOf: DateTime) {
  recall(space: $space, query: $q, first: 10, asOf: $asOf) { hits { nodeId kind score text eventAt } evidenceTokens }
}"""
TAG_VOTE = """query($space: String!, $q: String!) {
  tagVote(space: $space, query: $q, first: 10) { facts { nodeId score votes } matches { name match } }
}"""
ROUTE_SUBGOAL = """query($space: String!, $q: String!) {
  routeSubgoal(space: $space, subgoal: $q, first: 5) { nodeId score text }
}"""
PROVENANCE = """query($space: String!, $id: String!) {
  provenance(space: $space, id: $id) {
    nodeId status evidence { nodeId text eventAt } versions { nodeId status validFrom }
  }
}"""


class GraphQLClient:
    """POSTs one query to the served app and fails loudly on any error: a fast error is no timing."""

    def __init__(self, base: str, key: str) -> None:
        self._http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60)

    def __call__(self, query: str, **variables: Any) -> dict[str, Any]:
        response = self._http.post("/graphql", json={"query": query, "variables": variables})
        body = response.json()
        if response.status_code != 200 or body.get("errors"):
            raise RuntimeError(f"GraphQL {response.status_code}: {body.get('errors')}")
        return dict(body["data"])

    def close(self) -> None:
        self._http.close()


@contextmanager
def served_graphql(store: Store, embedder: Embedder, settings: Settings) -> Iterator[GraphQLClient]:
    """The app on a loopback port for the duration, with a read key for every space."""
    key = f"gmk_perf_{secrets.token_urlsafe(18)}"
    served_settings = settings.model_copy(update={"api_keys": f"{key}|read|*|bench-perf"})
    services = Services(settings=served_settings, store=store, _embedder=embedder)
    config = uvicorn.Config(create_app(services), host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True, name="graphmem-perf-http")
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the benchmark's GraphQL server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    client = GraphQLClient(f"http://127.0.0.1:{port}", key)
    try:
        yield client
    finally:
        client.close()
        server.should_exit = True
        thread.join(timeout=10)


def http_operations(client: GraphQLClient, past: str) -> dict[str, Callable[[Any], object]]:
    """The timed GraphQL operations, by the name the tables print, each taking a perf `Probe`."""
    return {
        "http_recall": lambda p: client(RECALL, space=p.space, q=p.text),
        "http_recall_as_of": lambda p: client(RECALL, space=p.space, q=p.text, asOf=past),
        "http_tag_vote": lambda p: client(TAG_VOTE, space=p.space, q=p.text),
        "http_route_subgoal": lambda p: client(ROUTE_SUBGOAL, space=p.space, q=p.subgoal),
        "http_provenance": lambda p: client(PROVENANCE, space=p.space, id=p.fact_id),
    }
