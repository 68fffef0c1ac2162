"""Support for the GraphQL API tests: an app over the test Neo4j with known keys, and a small seeded graph.

The graph is written with plain parameterised Cypher (via the evolution tests' `GraphBuilder`) so the API
is tested against exactly the nodes and edges a test names, independent of the write path.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from graphmem.api import Services, create_app
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.timeutil import FAR_FUTURE
from tests.support.evolution_fixtures import GraphBuilder, day


def new_key() -> str:
    return f"gmk_test_{secrets.token_urlsafe(24)}"


@dataclass
class ApiKeys:
    """Raw keys for the test app, each with its scopes and spaces."""

    records: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (scopes, spaces)

    def add(self, scopes: str, spaces: str) -> str:
        key = new_key()
        self.records[key] = (scopes, spaces)
        return key

    def env(self) -> str:
        return ";".join(f"{key}|{scopes}|{spaces}" for key, (scopes, spaces) in self.records.items())


class ApiClient:
    """A GraphQL client over Starlette's TestClient (real HTTP semantics, in process)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.http = TestClient(create_app(services), raise_server_exceptions=False)

    def post(self, query: str, variables: dict[str, Any] | None = None, key: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)

    def gql(self, query: str, variables: dict[str, Any] | None = None, key: str | None = None) -> dict[str, Any]:
        response = self.post(query, variables, key)
        assert response.status_code == 200, response.text
        return dict(response.json())


def make_client(store: Store, embedder: Embedder, keys: ApiKeys, key_file: Path, **settings: Any) -> ApiClient:
    config = Settings(GRAPHMEM_API_KEYS=keys.env(), GRAPHMEM_API_KEY_FILE=key_file, **settings)
    return ApiClient(Services(settings=config, store=store, _embedder=embedder))


def error_codes(body: dict[str, Any]) -> list[str]:
    return [e.get("extensions", {}).get("code", "") for e in body.get("errors") or []]


@dataclass
class SeededGraph:
    space: str
    ids: dict[str, str]


def seed_graph(store: Store, space: str, embedder: Embedder) -> SeededGraph:
    """A session with three turns; a fact about the office that was superseded on 2024-06-01; a fact about
    the lunch place; a subgoal with one procedure. Tags: office, paris, lunch."""
    g = GraphBuilder(store, space, embedder)
    ids: dict[str, str] = {}
    ids["episode"] = g.episode("ep1", goal="plan the offsite", started_at=day("2024-01-10"))
    ids["turn1"] = g.episodic("t1", "The office is in Paris.", episode="ep1", event_at=day("2024-01-10"), seq=0)
    ids["turn2"] = g.episodic(
        "t2", "We moved the office to Lyon.", episode="ep1", event_at=day("2024-06-01"), author="ana", seq=1
    )
    ids["turn3"] = g.episodic("t3", "Lunch is at Chez Marie.", episode="ep1", event_at=day("2024-02-01"), seq=2)
    ids["old_fact"] = g.semantic(
        "f_old",
        "The office is in Paris",
        valid_from=day("2024-01-10"),
        tags=("office", "paris"),
        evidence=("t1",),
    )
    ids["new_fact"] = g.semantic(
        "f_new", "The office is in Lyon", valid_from=day("2024-06-01"), tags=("office",), evidence=("t2",)
    )
    ids["lunch_fact"] = g.semantic(
        "f_lunch", "Lunch is at Chez Marie", valid_from=day("2024-02-01"), tags=("lunch",), evidence=("t3",)
    )
    ids["procedure"] = g.procedural(
        "p1", "Book the venue two weeks ahead", valid_from=day("2024-01-10"), evidence=("t1",), goal="offsite"
    )
    ids["subgoal"] = f"{space}:g1"
    store.run_write_text(
        "MATCH (p:Procedural {id: $procedure}) "
        "MERGE (g:Subgoal {id: $subgoal}) SET g.space = $space, g.text = 'book a venue', g.caption = 'book a venue', "
        "g.importance = 1.0, g.members = 1, g.recorded_at = $recorded, g.expired_at = $far "
        "MERGE (g)-[:HAS_PROCEDURE]->(p) "
        "SET p.`return` = 0.8, p.uses = 3 "
        "WITH 1 AS one MATCH (new:Semantic {id: $new}), (old:Semantic {id: $old}) "
        "SET old.valid_to = $at, old.status = 'superseded' "
        "MERGE (new)-[r:SUPERSEDES]->(old) SET r.at = $at, r.recorded_at = $recorded, r.kind = 'explicit', "
        "r.reason = 'office moved', r.by = 'ana'",
        procedure=ids["procedure"],
        subgoal=ids["subgoal"],
        space=space,
        recorded=day("2020-01-01"),
        far=FAR_FUTURE,
        new=ids["new_fact"],
        old=ids["old_fact"],
        at=day("2024-06-01"),
    )
    return SeededGraph(space, ids)


class TcpRelay:
    """A TCP relay in front of Neo4j that a test can cut and restore: the store outage a user would see."""

    def __init__(self, target_host: str, target_port: int) -> None:
        import socket

        self.target = (target_host, target_port)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = int(probe.getsockname()[1])
        probe.close()
        self._listener: Any = None
        self._conns: list[Any] = []

    def start(self) -> None:
        import socket
        import threading

        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener

        def pipe(src: Any, dst: Any) -> None:
            try:
                while data := src.recv(65536):
                    dst.sendall(data)
            except OSError:
                pass
            finally:
                for s in (src, dst):
                    with contextlib.suppress(OSError):
                        s.close()

        def accept() -> None:
            while True:
                try:
                    client, _ = listener.accept()
                except OSError:
                    return
                upstream = socket.create_connection(self.target)
                self._conns += [client, upstream]
                threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
                threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()

        threading.Thread(target=accept, daemon=True).start()

    def stop(self) -> None:
        import socket

        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        for conn in self._conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
                conn.close()
            except OSError:
                pass
        self._conns = []
