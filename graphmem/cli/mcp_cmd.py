"""`graphmem mcp`: serve graphmem's tools to an agent over MCP (stdio)."""

from __future__ import annotations

import argparse

from graphmem.client import Client
from graphmem.config import get_settings


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("mcp", help="Model Context Protocol server (stdio) over a running graphmem service")
    parser.add_argument("--url", help="service base URL (GRAPHMEM_URL, default http://127.0.0.1:8000)")
    parser.add_argument("--space", help="default space for the tools (GRAPHMEM_SPACE)")
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from graphmem.mcp_server import build_mcp_server

    settings = get_settings()
    with Client(args.url or settings.service_url, api_key=settings.client_api_key) as client:
        build_mcp_server(client, args.space or settings.client_space).run("stdio")
    return 0
