"""Query roots that read the graph directly: health, viewer, node(id)/nodes(ids) and the Relay listings.

Every root asks for the read scope and a space the key may touch before it runs a query, and every
query filters by space in Cypher. The memory roots (recall, tagVote, ...) live in `memory_roots`.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Annotated, Any

import strawberry
from starlette.concurrency import run_in_threadpool

from graphmem.api.health import check_health
from graphmem.api.limits import check_first
from graphmem.api.listing import Connection, list_page
from graphmem.api.nodes import (
    ApiInfo,
    Episode,
    Episodic,
    GlobalId,
    Node,
    Procedural,
    Semantic,
    Subgoal,
    Tag,
    VersionStatus,
    build_node,
    parse_global_id,
)
from graphmem.api.scope import ReadScope
from graphmem.errors import InvalidInput


def _is_admin(info: ApiInfo) -> bool:
    principal = info.context.principal
    return principal is not None and "admin" in principal.scopes


@strawberry.type(description="Service and store health")
class HealthStatus:
    status: str = strawberry.field(description="ok, or degraded when Neo4j cannot be reached")
    neo4j_uri: str | None = strawberry.field(description="The store's address: only for an admin key, else null")
    neo4j_version: str | None
    detail: str | None


@strawberry.type(description="The API key making this request")
class Viewer:
    key_id: str
    name: str
    scopes: list[str]
    spaces: list[str] = strawberry.field(description="Spaces this key may touch; '*' means all")


def _statuses(status: list[VersionStatus] | None) -> tuple[str, ...] | None:
    return tuple(s.value for s in status) if status else None


def _scope(
    info: ApiInfo,
    space: str,
    as_of: datetime | None,
    known_at: datetime | None,
    status: list[VersionStatus] | None = None,
) -> ReadScope:
    scope = ReadScope.resolve(space, as_of, known_at, _statuses(status))
    info.context.require("read", space)
    return scope


async def lookup_nodes(info: ApiInfo, ids: list[str], as_of: datetime | None, known_at: datetime | None) -> list[Any]:
    """Nodes for global ids, one query per label, only from spaces the key may touch (else null)."""
    principal = info.context.require("read", None)
    wanted: dict[str, list[str]] = defaultdict(list)
    parsed: list[GlobalId] = []
    for n, value in enumerate(ids):
        named = parse_global_id(value)
        if named is None:
            raise InvalidInput("id" if len(ids) == 1 else f"ids.{n}", "not a global id (use a node's `id` field)")
        parsed.append(named)
        wanted[named.label].append(named.node_id)
    found: dict[tuple[str, str, str], Any] = {}
    holders: dict[tuple[str, str], list[str]] = defaultdict(list)
    for label, label_ids in wanted.items():
        rows = await run_in_threadpool(
            info.context.store.read,
            f"api/nodes_{label.lower()}",
            ids=sorted(set(label_ids)),
            all_spaces=principal.has_patterns,
            spaces=sorted(principal.spaces),
        )
        for row in rows:
            space = row["value"]["space"]
            if not principal.may_touch(space):
                continue  # a prefix pattern's non-matching spaces, fetched because Cypher matches names only
            scope = ReadScope.resolve(space, as_of, known_at)
            found[(label, space, row["key"])] = build_node(label, row["value"], scope)
            holders[(label, row["key"])].append(space)

    def resolve(named: GlobalId) -> Any:
        if named.space is not None:
            return found.get((named.label, named.space, named.node_id))
        spaces = holders.get((named.label, named.node_id), [])
        # an id without its space names a node only where one space the key may touch holds it
        return found[(named.label, spaces[0], named.node_id)] if len(spaces) == 1 else None

    return [resolve(named) for named in parsed]


Space = Annotated[
    str, strawberry.argument(description="The space (tenant) to read; the key must be allowed to touch it")
]
AsOf = Annotated[
    datetime | None,
    strawberry.argument(description="Valid-time instant to read at (default now); nested fields inherit it"),
]
KnownAt = Annotated[
    datetime | None,
    strawberry.argument(description="Record-time instant: what the service knew then (default now)"),
]
Statuses = Annotated[
    list[VersionStatus] | None,
    strawberry.argument(description="Statuses to include (default: ACTIVE now, any status with asOf)"),
]
First = Annotated[int | None, strawberry.argument(description="Page size (default 20, at most GRAPHMEM_API_MAX_FIRST)")]
After = Annotated[str | None, strawberry.argument(description="Cursor: return the items after this one")]


@strawberry.type
class Query:
    @strawberry.field(description="Is the service up, and can it reach Neo4j? (no key needed)")
    async def health(self, info: ApiInfo) -> HealthStatus:
        health = await run_in_threadpool(check_health, info.context.services)
        return HealthStatus(
            status=health.status,
            neo4j_uri=health.neo4j_uri if _is_admin(info) else None,
            neo4j_version=health.neo4j_version,
            detail=health.detail,
        )

    @strawberry.field(description="The API key making this request: its scopes and spaces")
    def viewer(self, info: ApiInfo) -> Viewer:
        principal = info.context.require("read", None)
        return Viewer(
            key_id=principal.key_id,
            name=principal.name,
            scopes=sorted(principal.scopes),
            spaces=sorted(principal.spaces),
        )

    @strawberry.field(description="Relay: any node by its global id (null when absent or not yours)")
    async def node(
        self,
        info: ApiInfo,
        id: strawberry.ID,
        as_of: AsOf = None,
        known_at: KnownAt = None,
    ) -> Node | None:
        found = await lookup_nodes(info, [id], as_of, known_at)
        return found[0]

    @strawberry.field(description="Relay: nodes by global ids, in the order given (null where absent)")
    async def nodes(
        self,
        info: ApiInfo,
        ids: list[strawberry.ID],
        as_of: AsOf = None,
        known_at: KnownAt = None,
    ) -> list[Node | None]:
        if len(ids) > info.context.settings.api_max_first:
            raise InvalidInput("ids", f"at most {info.context.settings.api_max_first} ids")
        return await lookup_nodes(info, list(ids), as_of, known_at)

    @strawberry.field(description="Facts (Semantic) of a space, newest first, with filters")
    async def semantics(
        self,
        info: ApiInfo,
        space: Space,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        status: Statuses = None,
        first: First = None,
        after: After = None,
        author: str | None = None,
        tag: Annotated[str | None, strawberry.argument(description="Only facts carrying this tag")] = None,
    ) -> Connection[Semantic]:
        scope = _scope(info, space, as_of, known_at, status)
        filters = {"author": author, "tag": tag, "tag_norm": tag.strip().lower() if tag else None}
        size = check_first(info.context.settings, first)
        return await list_page(info.context.store, "Semantic", scope, size, after, filters)

    @strawberry.field(description="Procedures (Procedural) of a space, newest first")
    async def procedures(
        self,
        info: ApiInfo,
        space: Space,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        status: Statuses = None,
        first: First = None,
        after: After = None,
        subgoal: Annotated[str | None, strawberry.argument(description="Only procedures of this subgoal id")] = None,
    ) -> Connection[Procedural]:
        scope = _scope(info, space, as_of, known_at, status)
        size = check_first(info.context.settings, first)
        return await list_page(info.context.store, "Procedural", scope, size, after, {"subgoal": subgoal})

    @strawberry.field(description="Evidence units (Episodic: steps, turns, documents) of a space, newest first")
    async def episodics(
        self,
        info: ApiInfo,
        space: Space,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        status: Statuses = None,
        first: First = None,
        after: After = None,
        kind: Annotated[str | None, strawberry.argument(description="step | turn | document")] = None,
        author: str | None = None,
        episode: Annotated[str | None, strawberry.argument(description="Only units of this episode id")] = None,
    ) -> Connection[Episodic]:
        scope = _scope(info, space, as_of, known_at, status)
        size = check_first(info.context.settings, first)
        filters = {"kind": kind, "author": author, "episode": episode}
        return await list_page(info.context.store, "Episodic", scope, size, after, filters)

    @strawberry.field(description="Episodes (trajectories, sessions, document batches), most recent first")
    async def episodes(
        self,
        info: ApiInfo,
        space: Space,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        first: First = None,
        after: After = None,
        kind: Annotated[str | None, strawberry.argument(description="trajectory | chat | documents")] = None,
        session_id: str | None = None,
    ) -> Connection[Episode]:
        scope = _scope(info, space, as_of, known_at)
        size = check_first(info.context.settings, first)
        filters = {"kind": kind, "session_id": session_id}
        return await list_page(info.context.store, "Episode", scope, size, after, filters)

    @strawberry.field(description="Tags of a space by normal name")
    async def tags(
        self,
        info: ApiInfo,
        space: Space,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        first: First = None,
        after: After = None,
        prefix: Annotated[str | None, strawberry.argument(description="Only tags whose normal name starts so")] = None,
    ) -> Connection[Tag]:
        scope = _scope(info, space, as_of, known_at)
        size = check_first(info.context.settings, first)
        filters = {"prefix": prefix.strip().lower() if prefix else None}
        return await list_page(info.context.store, "Tag", scope, size, after, filters)

    @strawberry.field(description="Subgoals of a space by text")
    async def subgoals(
        self,
        info: ApiInfo,
        space: Space,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        first: First = None,
        after: After = None,
    ) -> Connection[Subgoal]:
        scope = _scope(info, space, as_of, known_at)
        size = check_first(info.context.settings, first)
        return await list_page(info.context.store, "Subgoal", scope, size, after, {})
