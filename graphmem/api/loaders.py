"""Per-request DataLoaders: every nested edge is fetched in one `UNWIND $ids` query per batch.

A loader is named by its Cypher file (`cypher/api/<name>.cypher`). Each file takes `$ids` plus the
scope parameters (space, as_of, known_at, statuses) and `$limit`, and returns rows `key, value`
(`value` a map, a list of maps or null). Keys in one batch that share a scope and limit go out as
one query, so a page of 100 facts asking for their tags costs one round trip, not 100.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from typing import Any

from starlette.concurrency import run_in_threadpool
from strawberry.dataloader import DataLoader

from graphmem.api.scope import ReadScope
from graphmem.db import Store


@dataclass(frozen=True)
class EdgeKey:
    """What one nested field asks for: the edge of `node_id` under `scope`, at most `limit` items."""

    node_id: str
    scope: ReadScope
    limit: int = 0


class Loaders:
    """The loaders of one request (never shared across requests: their cache is per request)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._loaders: dict[str, DataLoader[EdgeKey, Any]] = {}

    def edge(self, query: str) -> DataLoader[EdgeKey, Any]:
        loader = self._loaders.get(query)
        if loader is None:
            loader = DataLoader(load_fn=partial(self._load, query))
            self._loaders[query] = loader
        return loader

    async def load(self, query: str, node_id: str, scope: ReadScope, limit: int = 0) -> Any:
        return await self.edge(query).load(EdgeKey(node_id, scope, limit))

    async def _load(self, query: str, keys: list[EdgeKey]) -> list[Any]:
        groups: dict[tuple[ReadScope, int], list[str]] = defaultdict(list)
        for key in keys:
            ids = groups[(key.scope, key.limit)]
            if key.node_id not in ids:
                ids.append(key.node_id)
        found: dict[tuple[str, ReadScope, int], Any] = {}
        for (scope, limit), ids in groups.items():
            rows = await run_in_threadpool(
                self._store.read,
                f"api/{query}",
                ids=ids,
                limit=limit,
                all_spaces=False,
                spaces=[scope.space],
                **scope.params(),
            )
            for row in rows:
                found[(row["key"], scope, limit)] = row["value"]
        return [found.get((k.node_id, k.scope, k.limit)) for k in keys]
