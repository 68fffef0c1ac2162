"""`graphmem mcp` as an agent runs it: a stdio MCP server over a running service, driven by the MCP client."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.e2e.test_client import KEY, service  # noqa: F401  (the running service fixture)


def _text(result) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def test_mcp_tools_remember_recall_and_trace(service: str, space: str) -> None:  # noqa: F811
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "graphmem.cli", "mcp", "--url", service, "--space", space],
        env={**os.environ, "GRAPHMEM_API_KEY": KEY},
    )

    async def scenario() -> tuple[set[str], dict, dict, str]:
        async with Client(params) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            stored = json.loads(_text(await client.call_tool("remember", {
                "text": "The Coimbra lab calibrates the spectrometer every Monday.", "author": "joao",
                "event_at": "2024-04-01T08:00:00Z"})))  # fmt: skip
            found = json.loads(
                _text(await client.call_tool("recall", {"query": "When is the spectrometer calibrated?"}))
            )
            refused = await client.call_tool("remember", {"text": "   "})
            return tools, stored, found, _text(refused) if refused.is_error else ""

    tools, stored, found, refusal = asyncio.run(scenario())
    assert {"remember", "recall", "provenance", "history"} <= tools
    assert stored["failed"] == 0 and stored["ids"]
    assert "spectrometer" in found["hits"][0]["text"]
    assert "text" in refusal
