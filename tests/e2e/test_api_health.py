"""/healthz, /metrics and a Neo4j outage as clients see it: 503 "degraded", a clear "store unavailable"
error (never a 500 or a driver message), and recovery without a restart."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiKeys, TcpRelay, error_codes, make_client, seed_graph

FACTS = "query($s: String!) { semantics(space: $s) { edges { node { text } } } }"


def test_store_outage_degrades_health_and_recovers(neo4j_server, store, space: str, tmp_path: Path) -> None:
    embedder = HashingEmbedder(384)
    seed_graph(store, space, embedder)
    target = urlparse(neo4j_server.uri)
    relay = TcpRelay(target.hostname or "127.0.0.1", target.port or 7687)
    relay.start()
    keys = ApiKeys()
    key = keys.add("read", space)
    with Store(f"bolt://127.0.0.1:{relay.port}", neo4j_server.user, neo4j_server.password) as relayed:
        api = make_client(relayed, embedder, keys, tmp_path / "keys.json")
        healthy = api.http.get("/healthz")
        assert healthy.status_code == 200 and healthy.json()["status"] == "ok"
        assert len(api.gql(FACTS, {"s": space}, key=key)["data"]["semantics"]["edges"]) == 2

        relay.stop()
        started = time.monotonic()
        down = api.http.get("/healthz")
        assert down.status_code == 503 and down.json()["status"] == "degraded"
        assert time.monotonic() - started < 5  # a health probe answers at once, without the driver's retries
        body = api.gql(FACTS, {"s": space}, key=key)
        assert error_codes(body) == ["STORE_UNAVAILABLE"]
        assert body["errors"][0]["message"].startswith("store unavailable")
        assert "bolt://" not in body["errors"][0]["message"]

        relay.start()
        assert api.http.get("/healthz").status_code == 200
        assert len(api.gql(FACTS, {"s": space}, key=key)["data"]["semantics"]["edges"]) == 2
        metrics = api.http.get("/metrics").text
        assert 'graphmem_graphql_errors_total{code="STORE_UNAVAILABLE"} 1' in metrics
        assert "graphmem_graphql_requests_total 3" in metrics
    relay.stop()
