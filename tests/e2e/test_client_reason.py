"""`Client.reason` / `AsyncClient.reason` against a running service over real HTTP: guidance within the budget,
the items it drew on, as of a date, and field-named errors."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest

from graphmem import AsyncClient, Client, GraphmemClientError
from tests.support.service import serve_process

KEY = "gmk_reasontest_" + uuid.uuid4().hex
# The first recall on a cold service on a loaded shared machine can take longer than the defaults' 30 s.
TIMEOUT_S = 180


@pytest.fixture(scope="module")
def service(neo4j_server, tmp_path_factory) -> Iterator[str]:
    key_file = str(tmp_path_factory.mktemp("keys") / "keys.json")
    with serve_process(neo4j_server, GRAPHMEM_API_KEYS=f"{KEY}|read,write|*|reason-test",
                       GRAPHMEM_API_KEY_FILE=key_file, GRAPHMEM_API_QUERY_TIMEOUT=str(TIMEOUT_S)) as base:  # fmt: skip
        yield base


def test_client_reasons_within_the_budget_with_provenance(service: str, space: str) -> None:
    with Client(service, api_key=KEY, timeout=TIMEOUT_S) as gm:
        gm.ingest_documents(
            space,
            [
                {"id": f"{space}-a", "text": "The Lisbon warehouse ships orders every Tuesday.", "author": "rui",
                 "eventAt": "2024-02-01T00:00:00Z"},
                {"id": f"{space}-b", "text": "The Lisbon warehouse ships orders every Thursday from now on.",
                 "author": "ana", "eventAt": "2024-05-01T00:00:00Z", "supersedes": [f"{space}-a"]},
                {"id": f"{space}-c", "text": "Quarterly planning moved to the Porto office.", "author": "ana",
                 "eventAt": "2024-02-03T00:00:00Z"},
            ],
        )  # fmt: skip
        now = gm.reason(space, "Which day does the Lisbon warehouse ship orders?", token_budget=30)
        assert now["usedLlm"] is False and "Thursday" in now["guidance"]
        assert 0 < now["guidanceTokens"] <= now["tokenBudget"] == 30
        units = {e["nodeId"] for item in now["items"] for e in item["evidence"]}
        assert f"{space}-b" in units
        then = gm.reason(
            space, "Which day does the Lisbon warehouse ship orders?", token_budget=30, as_of="2024-03-01T00:00:00Z"
        )
        assert "Tuesday" in then["guidance"] and "Thursday" not in then["guidance"]
        with pytest.raises(GraphmemClientError) as caught:
            gm.reason(space, "Which day?", token_budget=-1)
        assert caught.value.field == "tokenBudget" and caught.value.code == "INVALID_INPUT"
        with pytest.raises(GraphmemClientError) as empty:
            gm.reason(space, " ")
        assert empty.value.field == "query"


def test_async_client_reasons(service: str, space: str) -> None:
    async def scenario() -> dict:
        async with AsyncClient(service, api_key=KEY, timeout=TIMEOUT_S) as gm:
            await gm.ingest_documents(space, [{"text": "The Faro team owns the billing service.", "author": "ines"}])
            return await gm.reason(space, "Who owns the billing service?", subgoal="find the owner", token_budget=20)

    result = asyncio.run(scenario())
    assert "Faro" in result["guidance"] and result["guidanceTokens"] <= 20 and result["items"]
