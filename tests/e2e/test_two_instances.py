"""Two `graphmem serve` processes on one Neo4j, as behind a load balancer, each with its own local folder:
keys created or revoked on one machine count on both at once, and a write through one reads through the other.
Nothing but NEO4J_URI is configured, so this is also the default key store for a shared server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from graphmem import Client
from graphmem.api.key_table import KeyTable
from graphmem.cli import main
from graphmem.config import get_settings
from graphmem.db import Store, install_schema
from tests.support.service import serve_process

VIEWER = "{ viewer { keyId name } }"


@pytest.fixture(scope="module")
def instances(neo4j_server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Two instances, started side by side on a database whose schema is already in place."""
    with Store(neo4j_server.uri, neo4j_server.user, neo4j_server.password) as store:
        install_schema(store, 384)  # so the two instances' own (idempotent) installs do not race on a fresh server
    clean = {"GRAPHMEM_API_KEYS": "", "GRAPHMEM_API_KEY_STORE": "auto"}
    starting = [
        serve_process(neo4j_server, GRAPHMEM_SECRETS_DIR=str(tmp_path_factory.mktemp(name)), **clean)
        for name in ("a", "b")
    ]
    with ExitStack() as stack, ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(instance.__enter__) for instance in starting]
        bases, failures = [], []
        for instance, future in zip(starting, futures, strict=True):
            try:
                bases.append(future.result())
                stack.push(instance.__exit__)
            except Exception as exc:  # the other instance still has to stop
                failures.append(exc)
        if failures:
            raise failures[0]
        yield bases[0], bases[1]


def _viewer(base: str, key: str) -> httpx.Response:
    return httpx.post(base + "/graphql", json={"query": VIEWER}, headers={"Authorization": f"Bearer {key}"})


def test_a_key_created_on_one_machine_works_on_both_and_its_revocation_too(
    instances: tuple[str, str], neo4j_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    env = {"NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user, "NEO4J_PASSWORD": neo4j_server.password}
    for name, value in {**env, "GRAPHMEM_SECRETS_DIR": str(tmp_path)}.items():
        monkeypatch.setenv(name, value)
    for name in ("GRAPHMEM_API_KEY_STORE", "GRAPHMEM_API_KEY_FILE", "GRAPHMEM_API_KEYS"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    try:
        assert main(["keys", "create", "--scopes", "read", "--spaces", "*", "--name", "made-on-a"]) == 0
        created = json.loads(capsys.readouterr().out)
        for base in instances:
            body = _viewer(base, created["key"]).json()
            assert body["data"]["viewer"] == {"keyId": created["key_id"], "name": "made-on-a"}, base
        assert main(["keys", "revoke", created["key_id"]]) == 0
    finally:
        get_settings.cache_clear()
    for base in instances:  # the very next request, on either instance: no cache to wait out
        body = _viewer(base, created["key"]).json()
        assert body["data"] is None and body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED", base


def test_a_write_through_one_instance_reads_through_the_other(
    instances: tuple[str, str], neo4j_server, space: str
) -> None:
    with Store(neo4j_server.uri, neo4j_server.user, neo4j_server.password) as store:
        key, _ = KeyTable(store).create(("read", "write"), (space,), "writer")
    a, b = instances
    with Client(a, api_key=key) as first:
        stored = first.ingest_documents(
            space, [{"id": "memo", "text": "The Tromsø depot closes at noon on Fridays.", "author": "kari"}]
        )
    assert stored["failed"] == 0
    with Client(b, api_key=key) as second:
        hits = second.recall(space, "When does the Tromsø depot close on Fridays?", first=3)["hits"]
    assert hits and "Tromsø depot" in hits[0]["text"]
