"""Provenance as of a date: a fact or procedure -> EVIDENCED_BY -> Episodic -> PART_OF -> Episode (source),
plus its SUPERSEDES / MERGED_FROM lineage as it stood at `as_of` (edges dated later are not yet there)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphmem.db import Store
from graphmem.errors import InvalidInput, NotFound
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import native_time, open_ended
from graphmem.read.results import EvidenceUnit, LineageEdge, Provenance, Version
from graphmem.timeutil import FAR_FUTURE


def _valid_at(version: Version, at: datetime) -> bool:
    start = version.valid_from
    end = version.valid_to
    return (start is None or start <= at) and (end is None or end > at)


def _version(data: dict[str, Any]) -> Version:
    return Version(
        id=data["id"],
        text=data.get("text"),
        status=data.get("status"),
        valid_from=native_time(data.get("valid_from")),
        valid_to=open_ended(native_time(data.get("valid_to"))),
    )


def provenance(store: Store, space: str, node_id: str, as_of: object = None, known_at: object = None) -> Provenance:
    """Raises NotFound when `node_id` is no fact, procedure or evidence unit of `space` known then."""
    if not isinstance(node_id, str) or not node_id.strip():
        raise InvalidInput("id", "a node id is required")
    if not isinstance(space, str) or not space.strip():
        raise InvalidInput("space", "a space is required")
    scope = AsOf.resolve(as_of, known_at)
    rows = store.read("read/provenance_node", id=node_id, space=space, known_at=scope.known_at, far=FAR_FUTURE)
    if not rows:
        raise NotFound("id", f"no fact, procedure or evidence unit {node_id!r} in space {space!r}")
    node = rows[0]
    edges = store.read("read/provenance_lineage", id=node_id, space=space, as_of=scope.as_of, known_at=scope.known_at)
    lineage: list[LineageEdge] = []
    versions: dict[str, Version] = {
        node_id: Version(
            node_id,
            node["text"],
            node["status"],
            native_time(node["valid_from"]),
            open_ended(native_time(node["valid_to"])),
        )
    }
    for e in edges:
        source, target = _version(e["source"]), _version(e["target"])
        versions.setdefault(source.id, source)
        versions.setdefault(target.id, target)
        lineage.append(
            LineageEdge(
                e["type"],
                source.id,
                target.id,
                native_time(e["at"]),
                e.get("kind"),
                e.get("reason"),
                e.get("by"),
            )
        )
    chain = [v for v in versions.values() if _valid_at(v, scope.as_of) and v.status != "merged"]
    version_at = node_id if _valid_at(versions[node_id], scope.as_of) else (chain[0].id if chain else None)
    direct = [edge for edge in lineage if node_id in (edge.source_id, edge.target_id)]
    return Provenance(
        id=node_id,
        kind=node["kind"],
        text=node["text"] or "",
        status=node["status"] or "active",
        valid_from=native_time(node["valid_from"]),
        valid_to=open_ended(native_time(node["valid_to"])),
        author=node.get("author"),
        event_at=native_time(node.get("event_at")),
        evidence=[
            EvidenceUnit(
                id=u["id"],
                text=u.get("text") or "",
                event_at=native_time(u.get("event_at")),
                author=u.get("author"),
                seq=u.get("seq"),
                source=u.get("source"),
                episode_id=u.get("episode_id"),
                session_id=u.get("session_id"),
                episode_goal=u.get("episode_goal"),
            )
            for u in node["evidence"]
        ],
        lineage=lineage,
        versions=sorted(versions.values(), key=lambda v: (v.valid_from is None, v.valid_from or scope.as_of)),
        version_at=version_at,
        superseded_by=[e.source_id for e in direct if e.type == "SUPERSEDES" and e.target_id == node_id],
        supersedes=[e.target_id for e in direct if e.type == "SUPERSEDES" and e.source_id == node_id],
        merged_into=[e.source_id for e in direct if e.type == "MERGED_FROM" and e.target_id == node_id],
        merged_from=[e.target_id for e in direct if e.type == "MERGED_FROM" and e.source_id == node_id],
        as_of=scope.as_of,
        known_at=scope.known_at,
    )


def evidence_units(
    store: Store, space: str, node_ids: list[str], as_of: object = None, known_at: object = None
) -> dict[str, list[EvidenceUnit]]:
    """For each fact / procedure id, the evidence units it cites that existed at `as_of` (and were known at
    `known_at`), oldest first. A fact merged from several documents cites only those dated by then."""
    if not node_ids:
        return {}
    scope = AsOf.resolve(as_of, known_at)
    out: dict[str, list[EvidenceUnit]] = {node_id: [] for node_id in node_ids}
    rows = store.read(
        "read/evidence_units", ids=list(node_ids), space=space, as_of=scope.as_of, known_at=scope.known_at
    )
    for u in rows:
        out[u["node_id"]].append(
            EvidenceUnit(
                id=u["id"],
                text=u.get("text") or "",
                event_at=native_time(u.get("event_at")),
                author=u.get("author"),
                seq=u.get("seq"),
                source=None,
                episode_id=u.get("episode_id"),
                session_id=u.get("session_id"),
                episode_goal=u.get("episode_goal"),
            )
        )
    return out
