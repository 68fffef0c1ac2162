"""Dated supersession: `(new)-[:SUPERSEDES {at, recorded_at, kind, reason, by}]->(old)`.

Nothing is overwritten: the old version keeps its text, dates and edges; the edge is the record that closes
its validity at `at` (the earliest supersession wins), and its cached `valid_to` / `status` follow
(`revalidate`), as do those of the facts resting on it alone. Linking the same pair again
changes nothing, so document re-ingest and consolidation reruns are idempotent. A supersession of kind
`conflict` (found by consolidation) also lowers the old version's credibility (see `credibility`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.db import Store
from graphmem.errors import Conflict, InvalidInput, NotFound
from graphmem.evolution.credibility import CONFLICT_FACTOR
from graphmem.timeutil import FAR_FUTURE, parse_time, utc_now

KIND_EXPLICIT = "explicit"
KIND_CONFLICT = "conflict"
KIND_DOCUMENT = "document"
SUPERSESSION_KINDS = (KIND_EXPLICIT, KIND_CONFLICT, KIND_DOCUMENT)
VERSIONED = "Semantic, Procedural or Episodic"


def _field(index: int, name: str, many: bool) -> str:
    return f"rows[{index}].{name}" if many else name


def _normalise(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Shape checks that need no database: ids present and distinct, `at` a time, `kind` known."""
    many = len(rows) > 1
    clean: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        new_id, old_id = row.get("new_id"), row.get("old_id")
        for name, value in (("new_id", new_id), ("old_id", old_id)):
            if not isinstance(value, str) or not value.strip():
                raise InvalidInput(_field(i, name, many), "a node id is required")
        if new_id == old_id:
            raise Conflict(_field(i, "old_id", many), f"{old_id!r} cannot supersede itself")
        kind = row.get("kind") or KIND_EXPLICIT
        if kind not in SUPERSESSION_KINDS:
            raise InvalidInput(_field(i, "kind", many), f"must be one of {', '.join(SUPERSESSION_KINDS)}")
        for name in ("reason", "by"):
            if row.get(name) is not None and not isinstance(row.get(name), str):
                raise InvalidInput(_field(i, name, many), "must be text")
        clean.append(
            {
                "new_id": new_id,
                "old_id": old_id,
                "at": parse_time(_field(i, "at", many), row.get("at")),
                "kind": kind,
                "reason": row.get("reason") or None,
                "by": row.get("by") or None,
            }
        )
    return clean


def _to_native(value: Any) -> datetime:
    return value.to_native() if hasattr(value, "to_native") else value


def _check_against_graph(store: Store, tx: ManagedTransaction, space: str, rows: list[dict[str, Any]]) -> None:
    """Both versions exist in `space`, carry the same versioned label, and `at` is not before the old began."""
    many = len(rows) > 1
    for fact in store.run_in(tx, "write/supersede_check", space=space, rows=rows):
        i = fact["index"]
        row = rows[i]
        for side in ("new", "old"):
            if fact[f"{side}_label"] is None:
                raise NotFound(
                    _field(i, f"{side}_id", many),
                    f"no {VERSIONED} node {row[f'{side}_id']!r} in space {space!r}"
                    " (supersession links versions within one space)",
                )
        if fact["new_label"] != fact["old_label"]:
            raise InvalidInput(
                _field(i, "old_id", many),
                f"a {fact['new_label']} can only supersede a {fact['new_label']}, not a {fact['old_label']}",
            )
        began = _to_native(fact["old_valid_from"])
        if began is not None and row["at"] < began:
            raise InvalidInput(
                _field(i, "at", many),
                f"{row['at'].isoformat()} is before the old version began ({began.isoformat()})",
            )


def revalidate(store: Store, tx: ManagedTransaction, space: str, ids: Sequence[str]) -> None:
    """Recompute the cached validity of `ids` and of what rests on them from the records (write/revalidate)."""
    if ids:
        store.run_in(tx, "write/revalidate", space=space, ids=sorted(set(ids)), far=FAR_FUTURE)


def apply_supersessions(store: Store, tx: ManagedTransaction, space: str, rows: Sequence[Mapping[str, Any]]) -> int:
    """Link each row's `new_id` over `old_id` inside `tx`; returns how many SUPERSEDES edges were created.

    rows: `{"new_id", "old_id", "at": datetime | ISO text, "reason": str | None, "by": str | None,
    "kind": "explicit" | "conflict" | "document"}`. Raises `InvalidInput`, `NotFound` or `Conflict` naming
    the field (`rows[i].field` when several rows are given) and writes nothing in that case: a cycle found
    after linking is raised inside `tx`, so the caller's transaction rolls back.
    """
    if not rows:
        return 0
    clean = _normalise(rows)
    _check_against_graph(store, tx, space, clean)
    created = store.run_in(
        tx,
        "write/supersede_apply",
        space=space,
        rows=clean,
        recorded_at=utc_now(),
        conflict_factor=CONFLICT_FACTOR,
    )
    cycles = store.run_in(tx, "write/supersede_cycles", space=space, rows=clean)
    if cycles:
        row = clean[cycles[0]["index"]]
        raise Conflict(
            _field(cycles[0]["index"], "new_id", len(clean) > 1),
            f"{row['new_id']!r} superseding {row['old_id']!r} would make a cycle: "
            f"{row['old_id']!r} already supersedes {row['new_id']!r} (directly or through later versions)",
        )
    revalidate(store, tx, space, [row["old_id"] for row in clean])
    return int(created[0]["created"]) if created else 0


def supersede(
    store: Store,
    space: str,
    new_id: str,
    old_id: str,
    at: datetime | str,
    reason: str | None = None,
    by: str | None = None,
    kind: str = KIND_EXPLICIT,
) -> int:
    """One explicit supersession in its own transaction; returns 1 if the edge is new, 0 if it existed."""
    row = {"new_id": new_id, "old_id": old_id, "at": at, "reason": reason, "by": by, "kind": kind}
    return store.write_transaction(lambda tx: apply_supersessions(store, tx, space, [row]))
