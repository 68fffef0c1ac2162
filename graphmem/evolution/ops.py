"""The evolution operations of `MemoryGraph` (a mixin; see graphmem/memory_graph.py)."""

from __future__ import annotations


class TimeOps:
    """Filled in by the evolution path."""
