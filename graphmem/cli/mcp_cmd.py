"""`graphmem mcp`: serve graphmem's tools to an agent over MCP (stdio)."""

from __future__ import annotations

import argparse
import textwrap

from graphmem.client import Client
from graphmem.config import Settings, get_settings

ENVIRONMENT = ("service_url", "client_api_key", "client_space")


def _environment_help() -> str:
    """The settings `graphmem mcp` reads, named as in the environment (declared once, in `Settings`)."""
    lines = ["environment:"]
    for name in ENVIRONMENT:
        field = Settings.model_fields[name]
        default = "unset" if field.default is None else field.default
        lines.append(f"  {field.alias:<18} {field.description} (default: {default})")
    lines.append("  an option given on the command line wins over its variable")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "mcp",
        help="Model Context Protocol server (stdio) over a running graphmem service",
        description=textwrap.fill(
            "Serve graphmem's memory tools (remember, recall, supersede, ...) to an agent over MCP on "
            "stdin/stdout. It calls a running graphmem service with an API key, so the key's scopes and "
            "spaces apply; `forget` needs an admin key."
        ),
        epilog=_environment_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--url", help="service base URL (GRAPHMEM_URL, default http://127.0.0.1:8000)")
    parser.add_argument("--space", help="default space for the tools (GRAPHMEM_SPACE)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each service call (60)")
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from graphmem.mcp import build_mcp_server

    settings = get_settings()
    with Client(args.url or settings.service_url, api_key=settings.client_api_key, timeout=args.timeout) as client:
        build_mcp_server(client, args.space or settings.client_space).run("stdio")
    return 0
