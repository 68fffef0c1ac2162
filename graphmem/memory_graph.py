"""`MemoryGraph`: the Python API in one object — write, read and time operations over one Store.

Each family of operations is a mixin kept beside its implementation (`graphmem.write.ops`,
`graphmem.read.ops`, `graphmem.evolution.ops`); this class only holds what they share.
"""

from __future__ import annotations

from graphmem.config import Settings, get_settings
from graphmem.db import Store
from graphmem.embed import Embedder, make_embedder
from graphmem.evolution.ops import TimeOps
from graphmem.read.ops import ReadOps
from graphmem.write.ops import WriteOps


class MemoryGraph(WriteOps, ReadOps, TimeOps):
    """Knowledge memory over Neo4j. Every operation is scoped to a `space`."""

    def __init__(self, store: Store, embedder: Embedder, settings: Settings | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings or get_settings()

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> MemoryGraph:
        settings = settings or get_settings()
        return cls(Store.from_settings(settings), make_embedder(settings), settings)

    def close(self) -> None:
        self.store.close()
