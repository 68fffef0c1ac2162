"""`graphmem serve` as a user runs it: a real process on a free port, answering /healthz and GraphQL."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.service import serve_process


@pytest.fixture(scope="module")
def service(neo4j_server) -> Iterator[str]:
    with serve_process(neo4j_server) as base:
        yield base


def test_healthz_answers_ok_with_the_neo4j_version(service: str) -> None:
    body = httpx.get(service + "/healthz").json()
    assert body["status"] == "ok"
    assert body["neo4j"]["version"].startswith("20")


def test_graphql_health_query(service: str) -> None:
    reply = httpx.post(service + "/graphql", json={"query": "{ health { status neo4jVersion } }"}).json()
    assert reply["data"]["health"]["status"] == "ok"
    assert reply["data"]["health"]["neo4jVersion"]
