"""`history(id)`: a node's whole version chain in both directions, with dates, authors and reasons."""

from __future__ import annotations

from typing import Any

from graphmem.db import Store
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.records import History, Version, VersionLink, native_time


def _link(raw: dict[str, Any]) -> VersionLink:
    return VersionLink(
        type=raw["type"],
        newer_id=raw["newer_id"],
        older_id=raw["older_id"],
        at=native_time(raw["at"]),
        recorded_at=native_time(raw["recorded_at"]),
        kind=raw.get("kind"),
        reason=raw.get("reason"),
        by=raw.get("by"),
    )


def history(store: Store, space: str, id: str) -> History:
    """Every version linked to `id` by SUPERSEDES or MERGED_FROM, oldest valid_from first.

    Raises `NotFound` (field `id`) when no Semantic, Procedural or Episodic node has that id in `space`.
    """
    if not isinstance(id, str) or not id.strip():
        raise InvalidInput("id", "a node id is required")
    rows = store.read("write/supersede_history", space=space, id=id)
    if not rows:
        raise NotFound("id", f"no Semantic, Procedural or Episodic node {id!r} in space {space!r}")
    versions = tuple(
        Version(
            id=row["id"],
            label=row["label"],
            text=row["text"],
            status=row["status"],
            author=row["author"],
            valid_from=native_time(row["valid_from"]),
            valid_to=native_time(row["valid_to"]),
            recorded_at=native_time(row["recorded_at"]),
            expired_at=native_time(row["expired_at"]),
            credibility=row["credibility"],
            links=tuple(_link(raw) for raw in row["links"] if raw is not None),
        )
        for row in rows
    )
    links = sorted(
        (link for version in versions for link in version.links),
        key=lambda link: (link.at is None, link.at, link.newer_id),
    )
    return History(id=id, versions=versions, links=tuple(links))
