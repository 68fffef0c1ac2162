"""`graphmem.Client` against a running service: write, recall, provenance and history over real HTTP."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest

from graphmem import AsyncClient, Client, GraphmemClientError
from tests.support.service import serve_process

KEY = "gmk_clienttest_" + uuid.uuid4().hex
READ_ONLY_KEY = "gmk_clientread_" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def service(neo4j_server, tmp_path_factory) -> Iterator[str]:
    keys = f"{KEY}|read,write|*|client-test;{READ_ONLY_KEY}|read|*|client-read"
    key_file = str(tmp_path_factory.mktemp("keys") / "keys.json")
    with serve_process(neo4j_server, GRAPHMEM_API_KEYS=keys, GRAPHMEM_API_KEY_FILE=key_file) as base:
        yield base


def test_client_writes_recalls_and_traces_provenance(service: str, space: str) -> None:
    with Client(service, api_key=KEY) as gm:
        assert gm.health()["status"] == "ok"
        stored = gm.ingest_documents(
            space,
            [
                {"id": f"{space}-a", "text": "The Lisbon warehouse ships orders every Tuesday.", "author": "rui",
                 "eventAt": "2024-02-01T00:00:00Z"},
                {"id": f"{space}-b", "text": "Quarterly planning moved to the Porto office.", "author": "ana",
                 "eventAt": "2024-02-03T00:00:00Z"},
            ],
        )  # fmt: skip
        assert stored["failed"] == 0 and stored["ids"] == [f"{space}-a", f"{space}-b"]
        result = gm.recall(space, "When does the Lisbon warehouse ship orders?", first=5)
        top = result["hits"][0]
        assert "Lisbon" in top["text"]
        fact = next(h for h in result["hits"] if h["kind"] == "semantic")
        chain = gm.provenance(space, fact["nodeId"])
        assert any(unit["nodeId"] == f"{space}-a" for unit in chain["evidence"])
        assert gm.history(space, f"{space}-a")["versions"][0]["nodeId"] == f"{space}-a"


def test_client_raises_field_named_errors(service: str, space: str) -> None:
    with Client(service, api_key=KEY) as gm, pytest.raises(GraphmemClientError) as caught:
        gm.ingest_documents(space, [{"text": "   "}])
    assert caught.value.field and "text" in caught.value.field
    with Client(service, api_key=READ_ONLY_KEY) as reader, pytest.raises(GraphmemClientError):
        reader.ingest_documents(space, [{"text": "a read-only key cannot write"}])


def test_async_client_recalls(service: str, space: str) -> None:
    async def scenario() -> dict:
        async with AsyncClient(service, api_key=KEY) as gm:
            await gm.ingest_documents(space, [{"text": "The Faro team owns the billing service.", "author": "ines"}])
            return await gm.recall(space, "Who owns the billing service?", first=3)

    result = asyncio.run(scenario())
    assert "billing" in result["hits"][0]["text"]
