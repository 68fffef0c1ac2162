"""Process-wide service state: settings, the Neo4j store and the embedder (loaded on first use)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder, make_embedder


@dataclass
class Services:
    settings: Settings
    store: Store
    _embedder: Embedder | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = make_embedder(self.settings)
            return self._embedder
