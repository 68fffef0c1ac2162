"""graphmem: knowledge memory for LLM agents on Neo4j.

`graphmem.Client` / `graphmem.AsyncClient` talk to a running service; `graphmem.memory_graph.MemoryGraph`
is the in-process Python API.
"""

from graphmem.client import AsyncClient, Client, GraphmemClientError

__version__ = "0.1.0"

__all__ = ["AsyncClient", "Client", "GraphmemClientError", "__version__"]
