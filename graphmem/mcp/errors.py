"""Failures as an agent sees them: one tool error whose message names the tool's own argument once
(`as_of: ...`, `documents.0.text: ...`), never a bare "Error executing tool" with the cause in a server log."""

from __future__ import annotations

import re

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import ValidationError

from graphmem.client import GraphmemClientError

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def argument_name(field: str, renames: dict[str, str] | None = None) -> str:
    """A service field path as the tool's argument: `input.documents[0].eventAt` -> `documents.0.event_at`;
    `renames` maps a leading path to the tool's name for it (`id` -> `node_id`, `documents.0` -> ``)."""
    path = field.removeprefix("input.").replace("[", ".").replace("]", "")
    path = ".".join(_CAMEL_BOUNDARY.sub("_", part).lower() for part in path.split("."))
    for old, new in (renames or {}).items():
        if path == old or path.startswith(old + "."):
            rest = path[len(old) + 1 :]
            return f"{new}.{rest}" if new and rest else new or rest
    return path


def client_tool_error(exc: GraphmemClientError, renames: dict[str, str] | None = None) -> ToolError:
    """A refused request as a tool error naming the argument that caused it."""
    if exc.field and exc.field != "input":
        return ToolError(f"{argument_name(exc.field, renames)}: {exc.message}")
    return ToolError(exc.message)


def arguments_error(exc: ValidationError) -> str:
    """Arguments that failed the tool's input schema, one `argument: reason` per problem."""
    problems = []
    for error in exc.errors(include_url=False):
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        problems.append(f"{where}: {error['msg'].removeprefix('Value error, ')}")
    return "; ".join(problems)
