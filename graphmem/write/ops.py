"""The write operations of `MemoryGraph` (a mixin; see graphmem/memory_graph.py)."""

from __future__ import annotations


class WriteOps:
    """Filled in by the write path."""
