"""The MCP server object: graphmem's tools over one `graphmem.Client`, with errors shaped for the agent."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

from graphmem.client import Client
from graphmem.mcp.errors import arguments_error
from graphmem.mcp.tools import Toolbox, register_tools

INSTRUCTIONS = (
    "Long-term memory shared with other agents and people. Store what you learn with `remember` (one note), "
    "`remember_documents` (a dated batch) or `remember_episode` (a task you carried out: goal, steps, outcome). "
    "Answer from memory with `recall` (as of a date if needed), or get guidance for your next step within a "
    "token budget with `reason`; `tag_vote` and `route_subgoal` are narrower "
    "searches. When something changed, link the new record over the old with `supersede`; see why a fact is "
    "held with `provenance`, how it changed with `history` or `changes`, and report how a procedure worked "
    "with `record_outcome`. Dates are ISO 8601 text (2024-06-01 or 2024-06-01T09:00:00Z)."
)


class GraphmemMCP(MCPServer[Any]):
    """`MCPServer` whose argument-validation errors read `argument: reason`, like the tools' own errors."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            raise ToolError(f"Error executing tool {name}: {arguments_error(cause)}") from cause


def build_mcp_server(client: Client, default_space: str | None = None) -> MCPServer[Any]:
    """graphmem's tools over `client` (a running service); `default_space` serves calls that name none."""
    server = GraphmemMCP("graphmem", instructions=INSTRUCTIONS)
    register_tools(server, Toolbox(client, default_space))
    return server
