"""The read operations of `MemoryGraph` (a mixin; see graphmem/memory_graph.py)."""

from __future__ import annotations


class ReadOps:
    """Filled in by the read path."""
