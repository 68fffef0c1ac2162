"""`forget(space, episode_id, by)`: the tenant-requested erase — graphmem's one real delete.

Removes the Episode, its Episodic units, and every Semantic / Procedural node whose evidence lies only in
those units (facts with evidence elsewhere stay, minus the erased evidence edges), any merged node built
over one of those (its text may carry the erased wording; its other sources are reopened), plus Tags and
Subgoals left pointing at nothing else. Versions the removed nodes had superseded or merged are reopened (their
validity follows whatever still supersedes them). An `AuditRecord` of what was removed, by whom and when
is written in the same transaction, so an erase without its record cannot happen. Who may call this is
decided by the caller (the API requires an admin key, the CLI `--yes`).
"""

from __future__ import annotations

import json
from typing import Any

from neo4j import ManagedTransaction

from graphmem.db import Store
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.records import ForgetReport
from graphmem.ids import content_id
from graphmem.timeutil import FAR_FUTURE, utc_now

REMOVED_LABELS = {
    "Episode": "episode_id",
    "Episodic": "episodic_ids",
    "Semantic": "semantic_ids",
    "Procedural": "procedural_ids",
    "Tag": "tag_ids",
    "Subgoal": "subgoal_ids",
}


def _erase(store: Store, tx: ManagedTransaction, space: str, episode_id: str, by: str) -> ForgetReport:
    plans = store.run_in(tx, "write/forget_plan", space=space, episode_id=episode_id)
    if not plans:
        raise NotFound("episode_id", f"no Episode {episode_id!r} in space {space!r}")
    found: dict[str, Any] = plans[0]
    removed = {
        label: sorted([found[key]] if label == "Episode" else found[key]) for label, key in REMOVED_LABELS.items()
    }
    at = utc_now()
    audit_id = content_id("audit", space, "forget", episode_id, at.isoformat())
    store.run_in(
        tx,
        "write/forget_apply",
        space=space,
        episode_id=episode_id,
        episodic_ids=removed["Episodic"],
        semantic_ids=removed["Semantic"],
        procedural_ids=removed["Procedural"],
        tag_ids=removed["Tag"],
        subgoal_ids=removed["Subgoal"],
        reopen_ids=found["reopen_ids"],
        audit_id=audit_id,
        by=by,
        at=at,
        far=FAR_FUTURE,
        removed=json.dumps(removed),
        removed_counts=json.dumps({label: len(ids) for label, ids in removed.items()}),
    )
    return ForgetReport(
        audit_id=audit_id,
        space=space,
        episode_id=episode_id,
        by=by,
        at=at,
        removed=removed,
        reopened=tuple(sorted(found["reopen_ids"])),
    )


def forget(store: Store, space: str, episode_id: str, by: str) -> ForgetReport:
    """Erase one episode and what depended only on it, with an audit record, in one transaction."""
    if not isinstance(episode_id, str) or not episode_id.strip():
        raise InvalidInput("episode_id", "an Episode id is required")
    if not isinstance(by, str) or not by.strip():
        raise InvalidInput("by", "say who asked for the erase (it goes into the audit record)")
    return store.write_transaction(lambda tx: _erase(store, tx, space, episode_id, by.strip()))
