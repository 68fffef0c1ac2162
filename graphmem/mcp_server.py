"""`graphmem mcp`: a Model Context Protocol server (stdio) that gives an agent graphmem as tools.

Tools: `remember` (store a dated note or document), `recall` (ranked memory with evidence), `provenance`
(where a fact came from, as of a date), `history` (a node's version chain) and `forget` (erase a document,
an episode, an author's records or a whole space; needs an admin key and `confirm`). The server is a thin
adapter over `graphmem.Client`, so it talks to a running service with an API key (GRAPHMEM_URL,
GRAPHMEM_API_KEY) and inherits its auth, tenancy and limits; errors come back as tool errors naming the
field.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from graphmem.client import Client, GraphmemClientError


def build_mcp_server(client: Client, default_space: str | None = None) -> MCPServer:
    server: MCPServer = MCPServer(
        "graphmem",
        instructions=(
            "Long-term memory. Use `remember` to store what you learned (with its date and author), `recall` "
            "to find what is known about a question (as of a date if needed), `provenance` to see the "
            "evidence behind a fact, and `history` to see how a fact changed over time."
        ),
    )

    def _space(space: str | None) -> str:
        chosen = space or default_space
        if not chosen:
            raise GraphmemClientError("a space is required (or start the server with --space)", field="space")
        return chosen

    def _call(fn: Any, *args: Any, **kwargs: Any) -> str:
        try:
            return json.dumps(fn(*args, **kwargs), ensure_ascii=False, default=str)
        except GraphmemClientError as exc:
            raise ToolError(str(exc)) from None

    @server.tool(description="Store a note or document in memory, with optional author and ISO 8601 date")
    def remember(text: str, space: str | None = None, author: str | None = None, event_at: str | None = None) -> str:
        document: dict[str, Any] = {"text": text}
        if author:
            document["author"] = author
        if event_at:
            document["eventAt"] = event_at
        return _call(client.ingest_documents, _space(space), [document])

    @server.tool(description="Ranked memory for a question, with the packed evidence; as_of bounds it in time")
    def recall(query: str, space: str | None = None, first: int = 5, as_of: str | None = None) -> str:
        return _call(client.recall, _space(space), query, first=first, as_of=as_of)

    @server.tool(description="Evidence, episode and version lineage behind a fact or procedure id")
    def provenance(node_id: str, space: str | None = None, as_of: str | None = None) -> str:
        return _call(client.provenance, _space(space), node_id, as_of=as_of)

    @server.tool(description="The whole version chain of a fact, procedure or document, with dates and authors")
    def history(node_id: str, space: str | None = None) -> str:
        return _call(client.history, _space(space), node_id)

    @server.tool(
        description="ERASE for good, audited: a document or episode (id), every record of an author, or the whole "
        "space (all); what rested only on it goes too. Needs an admin key and confirm=true"
    )
    def forget(
        space: str | None = None,
        id: str | None = None,
        author: str | None = None,
        all: bool = False,
        reason: str | None = None,
        confirm: bool = False,
    ) -> str:
        if not confirm:
            raise ToolError("confirm: forget erases data for good; call it again with confirm=true")
        return _call(client.forget, _space(space), id=id, author=author, all=all, reason=reason)

    return server
