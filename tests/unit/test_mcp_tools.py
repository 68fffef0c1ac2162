"""The MCP toolset without a service: what the agent is offered (typed arguments, structured results), and
how refusals read (one `argument: reason` message, also for an unreachable service). The client's GraphQL
documents are checked against the schema, so a tool's result model cannot drift from its query."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from graphql import build_schema, parse, validate
from mcp import Client as McpClient

import graphmem.client as client_module
from graphmem.cli.serve_cmd import export_sdl
from graphmem.client import Client, GraphmemClientError
from graphmem.mcp import build_mcp_server
from graphmem.mcp.errors import argument_name
from tests.support.service import free_port

DOCUMENTS = sorted(
    name
    for name, value in vars(client_module).items()
    if name.isupper() and isinstance(value, str) and re.match(r"\s*(query|mutation)\b", value)
)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_client_document_validates_against_the_schema(name: str) -> None:
    errors = validate(build_schema(export_sdl()), parse(getattr(client_module, name)))
    assert [e.message for e in errors] == []


def test_a_read_error_names_its_field_once() -> None:
    body = {"errors": [{"message": "first: must be between 1 and 200",
                        "extensions": {"code": "INVALID_INPUT", "field": "first"}}]}  # fmt: skip
    with pytest.raises(GraphmemClientError) as caught:
        client_module._raise_for_errors(body)
    assert str(caught.value) == "first: must be between 1 and 200"


def test_a_variable_the_service_could_not_read_is_named() -> None:
    body = {"errors": [{"message": "Variable '$asOf' got invalid value 'soon'; Value cannot represent a DateTime"}]}
    with pytest.raises(GraphmemClientError) as caught:
        client_module._raise_for_errors(body)
    assert caught.value.field == "asOf"


@pytest.mark.parametrize(
    ("service_field", "renames", "argument"),
    [
        ("input.documents[0].eventAt", None, "documents.0.event_at"),
        ("input.documents.0.text", {"documents.0": ""}, "text"),
        ("input.procedureId", None, "procedure_id"),
        ("id", {"id": "node_id"}, "node_id"),
        ("asOf", None, "as_of"),
        ("input.steps", None, "steps"),
    ],
)
def test_service_fields_become_the_tools_argument_names(
    service_field: str, renames: dict[str, str] | None, argument: str
) -> None:
    assert argument_name(service_field, renames) == argument


def _offline_server(default_space: str | None = "acme") -> Any:
    return build_mcp_server(Client(f"http://127.0.0.1:{free_port()}", timeout=2), default_space)


def test_every_tool_says_when_to_use_it_and_returns_structured_content() -> None:
    async def listed() -> list[Any]:
        async with McpClient(_offline_server()) as agent:
            return (await agent.list_tools()).tools

    for tool in asyncio.run(listed()):
        assert len(tool.description or "") > 60, tool.name
        schema = tool.output_schema or {}
        assert schema.get("type") == "object" and "result" not in schema.get("properties", {}), tool.name
        for name, argument in tool.input_schema["properties"].items():
            assert argument.get("description"), (tool.name, name)
            if name in ("event_at", "as_of", "known_at", "since", "until", "at", "started_at"):
                assert "ISO 8601" in argument["description"] + (tool.description or ""), (tool.name, name)


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("recall", {"query": "office"}, "service unreachable at http://127.0.0.1:"),
        ("remember_documents", {"documents": [{"text": "a"}]}, "service unreachable"),
        ("recall", {"query": "office", "as_of": "last Tuesday"}, "as_of: 'last Tuesday' is not an ISO 8601"),
        ("supersede", {"new_id": "a", "old_id": "b"}, "at: Field required"),
        ("remember_episode", {"goal": "g", "steps": [{"action": "a", "colour": "red"}]}, "steps.0.colour"),
        ("forget", {"id": "doc"}, "confirm: forget erases data for good"),
    ],
)
def test_refusals_reach_the_agent_as_tool_errors(tool: str, arguments: dict[str, Any], expected: str) -> None:
    async def call() -> Any:
        async with McpClient(_offline_server()) as agent:
            return await agent.call_tool(tool, arguments)

    result = asyncio.run(call())
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert result.is_error and expected in text, text


def test_a_call_without_a_space_names_the_space_argument() -> None:
    async def call() -> Any:
        async with McpClient(_offline_server(default_space=None)) as agent:
            return await agent.call_tool("recall", {"query": "office"})

    result = asyncio.run(call())
    assert result.is_error and "space: no space given" in result.content[0].text
