"""Service state shared by all requests (`Services`) and the state of one request (`RequestContext`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder, make_embedder

if TYPE_CHECKING:
    from graphmem.api.auth import KeyRing, Principal
    from graphmem.api.loaders import Loaders
    from graphmem.api.metrics import Metrics
    from graphmem.errors import GraphmemError
    from graphmem.memory_graph import MemoryGraph


@dataclass
class Services:
    """Process-wide: settings, the Neo4j store, the embedder (loaded on first use) and the key ring."""

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

    @cached_property
    def keyring(self) -> KeyRing:
        from graphmem.api.auth import KeyRing

        return KeyRing(self.settings, self.store)

    @cached_property
    def metrics(self) -> Metrics:
        from graphmem.api.metrics import Metrics

        return Metrics()

    @cached_property
    def memory(self) -> MemoryGraph:
        """The Python API the read roots and mutations delegate to."""
        from graphmem.memory_graph import MemoryGraph

        return MemoryGraph(self.store, self.embedder, self.settings)


@dataclass
class RequestContext:
    """What every resolver of one GraphQL request sees (`info.context`)."""

    services: Services
    request: Any
    response: Any
    request_id: str
    principal: Principal | None
    auth_error: GraphmemError | None
    loaders: Loaders

    def require(self, scope: str, space: str | None) -> Principal:
        from graphmem.api.auth import require

        return require(self.principal, self.auth_error, scope, space)

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @property
    def store(self) -> Store:
        return self.services.store
