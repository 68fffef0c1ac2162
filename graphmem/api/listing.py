"""Relay cursor connections over one space: keyset pagination in Cypher, never OFFSET.

Each listing query orders by (sort key, id) and takes the last (sort key, id) seen as `$after_key`,
`$after_id`; a cursor is that pair, base64-encoded. For a fixed `asOf`/`knownAt` the pages are stable:
inserting or superseding nodes later never shifts or repeats what a cursor points past.
"""

from __future__ import annotations

import base64
import json
from typing import Any, Generic, TypeVar

import strawberry
from starlette.concurrency import run_in_threadpool

from graphmem.api.nodes import _time, build_node
from graphmem.api.scope import ReadScope
from graphmem.db import Store
from graphmem.errors import InvalidInput
from graphmem.timeutil import parse_time

T = TypeVar("T")


@strawberry.type(description="Information to aid in pagination (Relay)")
class PageInfo:
    has_next_page: bool = strawberry.field(description="When paginating forwards, are there more items?")
    has_previous_page: bool = strawberry.field(description="Was this page requested with a cursor?")
    start_cursor: str | None = strawberry.field(description="Cursor of the first item of this page")
    end_cursor: str | None = strawberry.field(description="Cursor of the last item: pass it as `after`")


@strawberry.type(description="An item of a connection and its cursor (Relay)")
class Edge(Generic[T]):
    cursor: str
    node: T


@strawberry.type(description="A page of items with cursors (Relay cursor connection)")
class Connection(Generic[T]):
    page_info: PageInfo
    edges: list[Edge[T]]


# label -> whether its sort key is a time (else a string)
TIME_SORTED = {"Semantic": True, "Procedural": True, "Episodic": True, "Episode": True, "Tag": False, "Subgoal": False}


def encode_cursor(sort_key: Any, node_id: str) -> str:
    value = _time(sort_key)
    text = value.isoformat() if value is not None and hasattr(value, "isoformat") else sort_key
    raw = json.dumps([text, node_id], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii")


def decode_cursor(label: str, cursor: str | None) -> tuple[Any, str | None]:
    """(after_key, after_id) for a cursor, (None, None) for none; InvalidInput('after') otherwise."""
    if cursor is None:
        return None, None
    try:
        key, node_id = json.loads(base64.urlsafe_b64decode(cursor.encode("ascii")))
        if not isinstance(node_id, str) or not isinstance(key, str):
            raise ValueError
        return (parse_time("after", key) if TIME_SORTED[label] else key), node_id
    except (ValueError, TypeError, UnicodeError, InvalidInput):
        raise InvalidInput("after", "not a cursor from this connection") from None


async def list_page(
    store: Store,
    label: str,
    scope: ReadScope,
    first: int,
    after: str | None,
    filters: dict[str, Any],
) -> Connection[Any]:
    """One page of `label` nodes in `scope`; fetches first+1 rows to know whether another page exists."""
    after_key, after_id = decode_cursor(label, after)
    rows = await run_in_threadpool(
        store.read,
        f"api/list_{label.lower()}",
        limit=first + 1,
        after_key=after_key,
        after_id=after_id,
        **scope.params(),
        **filters,
    )
    has_next = len(rows) > first
    edges = [
        Edge(node=build_node(label, row["node"], scope), cursor=encode_cursor(row["sort_key"], row["node"]["id"]))
        for row in rows[:first]
    ]
    page_info = PageInfo(
        has_next_page=has_next,
        has_previous_page=after is not None,
        start_cursor=edges[0].cursor if edges else None,
        end_cursor=edges[-1].cursor if edges else None,
    )
    return Connection(edges=edges, page_info=page_info)
