"""Older import path of `graphmem.mcp.build_mcp_server`."""

from graphmem.mcp import build_mcp_server

__all__ = ["build_mcp_server"]
