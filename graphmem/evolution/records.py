"""Typed answers of the time operations (history, changes, consolidation, forget), for Python and GraphQL.

Times are aware UTC datetimes; a `valid_to` / `expired_at` of None means "still current" (the stored
far-future sentinel).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.timeutil import FAR_FUTURE, utc_now


def native_time(value: Any) -> datetime | None:
    """A stored Neo4j time as a Python datetime; the far-future sentinel becomes None."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    if value.year >= FAR_FUTURE.year:
        return None
    return value


@dataclass(frozen=True)
class VersionLink:
    """One lineage edge from a newer node to an older one.

    `type` is SUPERSEDES or MERGED_FROM; `kind` (explicit | conflict | document), `reason` and `by` are set
    for supersessions.
    """

    type: str
    newer_id: str
    older_id: str
    at: datetime | None
    recorded_at: datetime | None
    kind: str | None = None
    reason: str | None = None
    by: str | None = None


@dataclass(frozen=True)
class Version:
    """One version in a chain, with its valid time and record time."""

    id: str
    label: str
    text: str | None
    status: str
    author: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    credibility: float | None
    links: tuple[VersionLink, ...] = ()


@dataclass(frozen=True)
class History:
    """The whole version chain around `id`, oldest first; `links` ordered by `at`."""

    id: str
    versions: tuple[Version, ...]
    links: tuple[VersionLink, ...]

    @property
    def current(self) -> tuple[Version, ...]:
        """Versions valid now (normally one): not merged, and closed by no record dated at or before now."""
        now = utc_now()
        return tuple(v for v in self.versions if v.status != "merged" and (v.valid_to is None or v.valid_to > now))


@dataclass(frozen=True)
class Change:
    """One change in a window: `change` is added | superseded | merged.

    For `superseded`, `id` is the newer version and `other_id` the one it replaced; for `merged`, `id` is
    the merged node and `other_id` one of its sources; `by` is the author or whoever linked it.
    """

    change: str
    at: datetime | None
    recorded_at: datetime | None
    id: str
    label: str
    text: str | None
    by: str | None
    other_id: str | None = None
    kind: str | None = None
    reason: str | None = None


@dataclass
class ConsolidationReport:
    """What one consolidation pass saw and did; `dry_run` passes write nothing.

    `pairs_seen` candidate pairs were classified into `conflicts` / `restatements` / `unrelated`;
    `superseded` SUPERSEDES edges and `merged_nodes` merged nodes (from `merged` sources) were written;
    `skipped` pairs were classified but left alone, with the reasons counted in `skipped_reasons`.
    """

    space: str
    pairs_seen: int = 0
    conflicts: int = 0
    restatements: int = 0
    unrelated: int = 0
    superseded: int = 0
    merged: int = 0
    merged_nodes: int = 0
    skipped: int = 0
    skipped_reasons: dict[str, int] = field(default_factory=dict)
    classifier: str = "rules"
    dry_run: bool = False
    llm_calls: int = 0
    llm_failures: int = 0
    llm_prompt_tokens: int = 0
    llm_completion_tokens: int = 0
    elapsed_ms: float = 0.0

    def as_dict(self) -> dict[str, object]:
        from dataclasses import asdict

        return asdict(self)

    def skip(self, reason: str) -> None:
        self.skipped += 1
        self.skipped_reasons[reason] = self.skipped_reasons.get(reason, 0) + 1


@dataclass(frozen=True)
class ForgetReport:
    """What `forget` removed (label -> ids, all runs of this erasure), the versions it reopened in this run,
    and its AuditRecord: `target_kind` id | author | all, `state` completed | started (stopped early: rerun)."""

    audit_id: str
    space: str
    target_kind: str
    target: str
    by: str
    at: datetime
    removed: dict[str, list[str]]
    reopened: tuple[str, ...] = ()
    reason: str | None = None
    state: str = "completed"
    resumed: bool = False

    @property
    def removed_counts(self) -> dict[str, int]:
        return {label: len(ids) for label, ids in self.removed.items()}
