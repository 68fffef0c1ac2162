"""`graphmem mcp` as an agent runs it: the official MCP SDK client spawns `python -m graphmem.cli mcp` over
stdio against one running service (per module), and calls every tool, including the ways they fail."""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from graphmem import Client as GraphmemClient
from graphmem import GraphmemClientError
from tests.support.service import free_port, serve_process

KEY = "gmk_mcpagent_" + uuid.uuid4().hex  # admin too: `forget` is one of the tools under test
READ_ONLY_KEY = "gmk_mcpread_" + uuid.uuid4().hex
TOOLS = {
    "remember", "remember_documents", "remember_episode", "recall", "tag_vote", "route_subgoal", "provenance",
    "history", "changes", "supersede", "record_outcome", "forget", "reason",
}  # fmt: skip


@pytest.fixture(scope="module")
def service(neo4j_server, tmp_path_factory) -> Iterator[str]:
    keys = f"{KEY}|admin,read,write|*|mcp-agent;{READ_ONLY_KEY}|read|*|mcp-reader"
    key_file = str(tmp_path_factory.mktemp("keys") / "keys.json")
    slow_machine_ok = {"GRAPHMEM_API_QUERY_TIMEOUT": "300"}  # a shared CI box must not turn a recall into an error
    with serve_process(neo4j_server, GRAPHMEM_API_KEYS=keys, GRAPHMEM_API_KEY_FILE=key_file, **slow_machine_ok) as base:
        yield base


class Agent:
    """An MCP client session: `call` returns a tool's structured result, `refusal` the text of its error."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        assert not result.is_error, f"{tool} failed: {text}"
        assert isinstance(result.structured_content, dict), f"{tool} gave no structured content"
        return result.structured_content

    async def refusal(self, tool: str, **arguments: Any) -> str:
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        assert result.is_error, f"{tool} was not refused: {text[:300]}"
        return text


@asynccontextmanager
async def agent(url: str, space: str | None = None, key: str | None = KEY) -> AsyncIterator[Agent]:
    """`graphmem mcp --url URL [--space S]` with GRAPHMEM_API_KEY, as an MCP host would start it."""
    env = {k: v for k, v in os.environ.items() if k not in ("GRAPHMEM_API_KEY", "GRAPHMEM_SPACE", "GRAPHMEM_URL")}
    if key:
        env["GRAPHMEM_API_KEY"] = key
    args = ["-m", "graphmem.cli", "mcp", "--url", url, "--timeout", "300", *(["--space", space] if space else [])]
    async with Client(StdioServerParameters(command=sys.executable, args=args, env=env)) as client:
        yield Agent(client)


def _mentions(hits: list[dict[str, Any]], word: str) -> list[dict[str, Any]]:
    return [hit for hit in hits if word in hit["text"]]


def test_agent_records_that_the_office_moved_with_supersede(service: str, space: str) -> None:
    question = "Where is the Acme office?"

    async def scenario() -> dict[str, Any]:
        async with agent(service, space) as gm:
            listed = (await gm.client.list_tools()).tools
            paris = await gm.call("remember", text="The Acme office is in Paris.", author="ana",
                                  event_at="2024-01-10", id=f"{space}-paris")  # fmt: skip
            lyon = await gm.call("remember", text="The Acme office has moved to Lyon.", author="bo",
                                 event_at="2024-06-01", id=f"{space}-lyon")  # fmt: skip
            before = await gm.call("recall", query=question)
            link = await gm.call("supersede", new_id=f"{space}-lyon", old_id=f"{space}-paris", at="2024-06-01",
                                 reason="the office moved")  # fmt: skip
            again = await gm.call("supersede", new_id=f"{space}-lyon", old_id=f"{space}-paris", at="2024-06-01")
            now = await gm.call("recall", query=question, budget_tokens=200)
            march = await gm.call("recall", query=question, as_of="2024-03-01")
            advice = await gm.call("reason", query=question, token_budget=64)
            history = await gm.call("history", node_id=f"{space}-paris")
            changed = await gm.call("changes", since="2024-05-01", until="2024-07-01")
            fact = next(hit for hit in now["hits"] if hit["kind"] == "semantic")
            trace = await gm.call("provenance", node_id=fact["nodeId"])
            return locals()

    seen = asyncio.run(scenario())
    assert {tool.name for tool in seen["listed"]} == TOOLS
    for tool in seen["listed"]:
        assert tool.description and tool.output_schema and tool.output_schema.get("type") == "object", tool.name
        assert "result" not in tool.output_schema.get("properties", {}), tool.name  # not a JSON string in a box
    assert seen["paris"]["ids"] == [f"{seen['space']}-paris"] and seen["lyon"]["failed"] == 0
    before = seen["before"]["hits"]
    assert "Paris" in " ".join(hit["text"] for hit in before[:2])  # before the fix: Paris first, or both
    assert seen["link"]["created"] is True and seen["again"]["created"] is False
    now = seen["now"]
    assert "Lyon" in now["hits"][0]["text"]
    assert all(hit["status"] != "ACTIVE" for hit in _mentions(now["hits"], "Paris")), now["hits"]
    assert {"related", "contradictions", "evidenceTokens", "evidenceTruncated", "evidenceItems"} <= now.keys()
    assert 0 < now["evidenceTokens"] <= 200
    assert "Paris" in seen["march"]["hits"][0]["text"] and not _mentions(seen["march"]["hits"], "Lyon")
    advice = seen["advice"]  # the reasoning step: guidance within the budget, from the current version
    assert "Lyon" in advice["guidance"] and 0 < advice["guidanceTokens"] <= 64 and advice["tokenBudget"] == 64
    assert advice["items"] and advice["usedLlm"] is False
    paris_version = next(v for v in seen["history"]["versions"] if v["nodeId"] == f"{seen['space']}-paris")
    assert paris_version["status"] == "superseded" and paris_version["validTo"].startswith("2024-06-01")
    assert any(c["change"] == "superseded" for c in seen["changed"]["changes"])
    assert any(unit["nodeId"] == f"{seen['space']}-lyon" for unit in seen["trace"]["evidence"])


def test_agent_learns_a_procedure_from_an_episode_and_reports_its_outcome(service: str, space: str) -> None:
    async def scenario() -> dict[str, Any]:
        async with agent(service, space) as gm:
            steps = [
                {"action": "search rooms 'offsite Lyon'", "observation": "Found 3 rooms; Salle Rhone has a projector."},
                {"action": "book 'Salle Rhone' for May 3", "observation": "Booking confirmed for Salle Rhone."},
            ]
            episode = await gm.call("remember_episode", goal="book a meeting room for the offsite", steps=steps,
                                    outcome=1.0, started_at="2024-03-01")  # fmt: skip
            routed = await gm.call("route_subgoal", subgoal="book a room", first=3)
            procedure = routed["procedures"][0]["nodeId"]
            outcome = await gm.call("record_outcome", procedure_id=procedure, reward=0.0)
            batch = await gm.call("remember_documents", documents=[
                {"id": f"{space}-badge", "text": "Visitor badges for the Lyon office are issued at reception.",
                 "author": "carla", "event_at": "2024-04-02T08:30:00Z", "metadata": {"channel": "#facilities"}},
                {"text": "The Lyon office wifi network is called acme-guest.", "author": "dan"},
            ])  # fmt: skip
            voted = await gm.call("tag_vote", query="What do we know about the Lyon office?", tags=["Lyon"])
            erased = await gm.call("forget", id=f"{space}-badge", reason="test cleanup", confirm=True)
            after = await gm.call("recall", query="Where are visitor badges issued?")
            return locals()

    seen = asyncio.run(scenario())
    assert seen["episode"]["episodeId"] and seen["episode"]["skipped"] is False
    assert any(c["label"] == "Procedural" for c in seen["episode"]["created"])
    first = seen["routed"]["procedures"][0]
    assert first["kind"] == "procedural" and first["value"]
    assert seen["outcome"]["procedureId"] == seen["procedure"] and seen["outcome"]["uses"] >= 1
    assert seen["batch"]["failed"] == 0 and len(seen["batch"]["ids"]) == 2
    assert seen["voted"]["matches"] and all("Lyon" in fact["text"] for fact in seen["voted"]["facts"]), seen["voted"]
    assert any("badges" in fact["text"] for fact in seen["voted"]["facts"]), seen["voted"]
    assert seen["erased"]["completed"] and seen["erased"]["auditId"]
    assert not _mentions(seen["after"]["hits"], "badges")


def test_every_refusal_reaches_the_agent_naming_its_argument_once(service: str, space: str) -> None:
    async def scenario() -> dict[str, str]:
        async with agent(service) as gm:  # no default space
            await gm.call("remember", text="The Acme office is in Paris.", space=space, id=f"{space}-doc")
            return {
                "space": await gm.refusal("recall", query="Where is the Acme office?"),
                "node_id": await gm.refusal("provenance", node_id="no-such-node", space=space),
                "first": await gm.refusal("recall", query="office", space=space, first=10**6),
                "as_of": await gm.refusal("recall", query="office", space=space, as_of="last Tuesday"),
                "since": await gm.refusal("changes", since="2024-13-45", until="2024-07-01", space=space),
                "old_id": await gm.refusal(
                    "supersede", new_id=f"{space}-doc", old_id="no-such-doc", at="2024-06-01", space=space
                ),
                "text": await gm.refusal("remember", text="   ", space=space),
                "documents.0.event_at": await gm.refusal(
                    "remember_documents", space=space, documents=[{"text": "x", "event_at": "soon"}]
                ),
                "steps": await gm.refusal("remember_episode", goal="g", steps=[], space=space),
                "procedure_id": await gm.refusal("record_outcome", procedure_id="no-such", reward=1, space=space),
                "confirm": await gm.refusal("forget", id=f"{space}-doc", space=space),
                "id": await gm.refusal("forget", id="no-such-doc", space=space, confirm=True),
                "token_budget": await gm.refusal("reason", query="office", space=space, token_budget=5),
            }

    refusals = asyncio.run(scenario())
    for argument, message in refusals.items():
        assert f"{argument}: " in message, (argument, message)
        assert message.count(f"{argument}:") == 1, (argument, message)  # once: not "id: id: ..."
        assert "Traceback" not in message


def test_a_wrong_key_and_a_service_that_is_down_reach_the_agent(service: str, space: str) -> None:
    async def scenario() -> tuple[str, str, str]:
        async with agent(service, space, key="gmk_wrong_" + uuid.uuid4().hex) as stranger:
            wrong = await stranger.refusal("recall", query="Where is the Acme office?")
        async with agent(service, space, key=READ_ONLY_KEY) as reader:
            read_only = await reader.refusal("remember", text="A read-only key cannot write this.")
        async with agent(f"http://127.0.0.1:{free_port()}", space) as cut_off:
            down = await cut_off.refusal("recall", query="Where is the Acme office?")
        return wrong, read_only, down

    wrong, read_only, down = asyncio.run(scenario())
    assert "API key" in wrong
    assert "write" in read_only
    assert "unreachable" in down and "127.0.0.1" in down


def test_client_errors_name_the_field_once(service: str, space: str) -> None:
    with GraphmemClient(service, api_key=KEY) as gm:
        for call, field in (
            (lambda: gm.provenance(space, "no-such-node"), "id"),
            (lambda: gm.recall(space, "office", first=10**6), "first"),
            (lambda: gm.changes(space, "not a date", "2024-07-01"), "since"),
        ):
            with pytest.raises(GraphmemClientError) as caught:
                call()
            assert caught.value.field == field and str(caught.value).count(f"{field}:") == 1, str(caught.value)
