"""`forget`: the tenant-requested erase — graphmem's one real delete — of anything a caller wrote.

A target is one of: an id (a document or any Episodic unit, or an Episode with its units), an author (every
document, step and turn they wrote, and facts they stated without evidence), or a whole space. With the
erased units go the Semantic / Procedural nodes resting only on erased units, any merged node built over one
of those (its text may carry the erased wording), and Tags and Subgoals left with nothing else; an Episode goes
once no unit is left in it (an episode whose turns are partly the author's keeps the others' turns). What
other evidence supports stays, minus its EVIDENCED_BY edges to erased units, and every surviving node the
erasure touched (versions the erased nodes had superseded or merged, facts that lost evidence) has its cached
validity recomputed by `cypher/write/revalidate.cypher`.

The work runs in bounded transactions of `batch_size` units (GRAPHMEM_FORGET_BATCH_SIZE). An `AuditRecord`
(who, why, when, target, counts and ids removed — never text) is created first in state 'started'; each batch
updates it in the batch's own transaction, and it is marked 'completed' at the end. A run that dies midway
leaves the record 'started': running the same erasure again finds it and finishes the job. Who may call this
is decided by the caller (the API requires an admin key, the CLI `--yes`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from neo4j import ManagedTransaction

from graphmem.db import Store
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.records import ForgetReport
from graphmem.evolution.supersede import revalidate
from graphmem.ids import content_id
from graphmem.timeutil import FAR_FUTURE, utc_now

DEFAULT_BATCH_SIZE = 500
REMOVED_LABELS = ("Episode", "Episodic", "Semantic", "Procedural", "Tag", "Subgoal")
PLAN_KEYS = {
    "Episodic": "episodic_ids",
    "Semantic": "semantic_ids",
    "Procedural": "procedural_ids",
    "Tag": "tag_ids",
    "Subgoal": "subgoal_ids",
}
SWEEP_KEYS = {
    "Semantic": "semantic_ids",
    "Procedural": "procedural_ids",
    "Tag": "tag_ids",
    "Subgoal": "subgoal_ids",
    "Episode": "episode_ids",
}


@dataclass(frozen=True)
class ForgetTarget:
    """What to erase: `kind` is 'id' | 'author' | 'all'; `value` the id or author ('*' for a whole space)."""

    kind: str
    value: str

    @property
    def params(self) -> dict[str, Any]:
        return {
            "mode": self.kind,
            "id": self.value if self.kind == "id" else None,
            "author": self.value if self.kind == "author" else None,
        }


def forget_target(id: str | None = None, author: str | None = None, all: bool = False) -> ForgetTarget:
    """Exactly one of `id`, `author` or `all`, checked; the field named in the error is the one at fault."""
    given = [name for name, value in (("id", id), ("author", author), ("all", all or None)) if value is not None]
    if len(given) != 1:
        raise InvalidInput("id", "name exactly one thing to erase: an id, an author, or the whole space (all)")
    if all:
        return ForgetTarget("all", "*")
    field, value = ("id", id) if id is not None else ("author", author)
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, f"an {field} to erase is required")
    return ForgetTarget(field, value.strip())


def _merge_removed(removed: dict[str, list[str]], more: dict[str, list[str]]) -> dict[str, list[str]]:
    return {label: sorted({*removed.get(label, []), *more.get(label, [])}) for label in REMOVED_LABELS}


class _Erasure:
    """One run of an erasure: the open AuditRecord, and the batches still to do."""

    def __init__(self, store: Store, space: str, target: ForgetTarget, batch_size: int) -> None:
        self.store, self.space, self.target, self.batch_size = store, space, target, batch_size
        self.audit_id = ""
        self.reopened: set[str] = set()
        self.removed: dict[str, list[str]] = {label: [] for label in REMOVED_LABELS}

    def _record(self, tx: ManagedTransaction, batch: dict[str, list[str]]) -> None:
        self.removed = _merge_removed(self.removed, batch)
        self.store.run_in(
            tx,
            "write/forget_progress",
            space=self.space,
            audit_id=self.audit_id,
            removed=json.dumps(self.removed),
            removed_counts=json.dumps({label: len(ids) for label, ids in self.removed.items()}),
        )

    def unit_batch(self, tx: ManagedTransaction) -> bool:
        """Erase the next batch of units and what rests only on them; False when nothing was left."""
        store, space = self.store, self.space
        [plan] = store.run_in(tx, "write/forget_plan", space=space, batch_size=self.batch_size, **self.target.params)
        batch = {label: list(plan[key]) for label, key in PLAN_KEYS.items()}
        episode_ids = list(plan["episode_ids"])
        if self.target.kind == "id" and not batch["Episodic"]:
            episode_ids.append(self.target.value)  # an Episode with no unit left (or none at all)
        if not any(batch.values()) and not episode_ids:
            return False
        [applied] = store.run_in(tx, "write/forget_apply", space=space, episode_ids=episode_ids,
                                 **{key: batch[label] for label, key in PLAN_KEYS.items()})  # fmt: skip
        batch["Episode"] = list(applied["removed_episodes"])
        if not any(batch.values()):
            return False
        revalidate(store, tx, space, list(plan["touched"]))
        self.reopened.update(plan["reopen_ids"])
        self._record(tx, batch)
        return True

    def sweep_batch(self, tx: ManagedTransaction) -> bool:
        """Whole space only: remove the next batch of whatever is left once the units are gone."""
        [swept] = self.store.run_in(tx, "write/forget_sweep", space=self.space, batch_size=self.batch_size)
        batch = {label: list(swept[key]) for label, key in SWEEP_KEYS.items()}
        if not any(batch.values()):
            return False
        self._record(tx, batch)
        return True


def forget(
    store: Store,
    space: str,
    id: str | None = None,
    by: str = "",
    *,
    author: str | None = None,
    all: bool = False,
    reason: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_batches: int | None = None,
) -> ForgetReport:
    """Erase an id, an author's records or a whole space, with what rested only on them, audited and resumable.

    Runs in transactions of `batch_size` units; `max_batches` stops a run early (the record stays 'started' and
    the same call finishes it). A rerun after a run that died midway continues that run's AuditRecord.
    """
    target = forget_target(id, author, all)
    if not isinstance(by, str) or not by.strip():
        raise InvalidInput("by", "say who asked for the erase (it goes into the audit record)")
    if reason is not None and not isinstance(reason, str):
        raise InvalidInput("reason", "the reason must be text")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise InvalidInput("batch_size", "the batch size must be a positive whole number")
    by, reason = by.strip(), (reason.strip() or None) if reason else None
    key = {"space": space, "target_kind": target.kind, "target": target.value}
    erasure = _Erasure(store, space, target, batch_size)
    opened = store.read("write/forget_open", **key)
    if opened:
        row = opened[0]
        audit_id, by, reason, at = row["id"], row["by"], row["reason"], row["at"]
        at = at.to_native() if hasattr(at, "to_native") else at
        erasure.removed = _merge_removed({}, json.loads(row["removed"] or "{}"))
        store.write("write/forget_resume", space=space, audit_id=audit_id, at=utc_now())
    else:
        [exists] = store.read("write/forget_target", space=space, **target.params)
        if not exists["found"]:
            raise NotFound(target.kind if target.kind != "all" else "space",
                           f"nothing to erase for {target.kind} {target.value!r} in space {space!r}")  # fmt: skip
        at = utc_now()
        audit_id = content_id("audit", space, "forget", target.kind, target.value, at.isoformat())
        store.write("write/forget_start", audit_id=audit_id, by=by, reason=reason, at=at, far=FAR_FUTURE, **key)

    steps: list[Step] = [erasure.unit_batch]
    if target.kind == "all":
        steps.append(erasure.sweep_batch)
    erasure.audit_id = audit_id
    completed = _run(store, steps, max_batches)
    if completed:
        store.write("write/forget_complete", space=space, audit_id=audit_id, at=utc_now())
    return ForgetReport(
        audit_id=audit_id,
        space=space,
        target_kind=target.kind,
        target=target.value,
        by=by,
        reason=reason,
        at=at,
        removed=erasure.removed,
        reopened=tuple(sorted(erasure.reopened)),
        state="completed" if completed else "started",
        resumed=bool(opened),
    )


Step = Callable[[ManagedTransaction], bool]


def _run(store: Store, steps: list[Step], max_batches: int | None) -> bool:
    """Run each step's batches until it has nothing left; False when `max_batches` stopped the run first."""
    done = 0
    for step in steps:
        while True:
            if max_batches is not None and done >= max_batches:
                return False
            if not store.write_transaction(step):
                break
            done += 1
    return True
