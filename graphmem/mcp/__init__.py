"""`graphmem mcp`: graphmem as Model Context Protocol tools for an agent, over a running service.

A thin adapter over `graphmem.Client` (GRAPHMEM_URL, GRAPHMEM_API_KEY), so it inherits the service's auth,
tenancy and limits. Tools are declared in `tools.py`, their typed results in `models.py`, and errors reach
the agent as tool errors naming the argument (`errors.py`).
"""

from graphmem.mcp.server import build_mcp_server

__all__ = ["build_mcp_server"]
