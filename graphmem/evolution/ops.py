"""The evolution operations of `MemoryGraph` (a mixin; see graphmem/memory_graph.py).

Thin wrappers: each delegates to the module that owns the operation, so the API, the CLI and library users
share one implementation.
"""

from __future__ import annotations

from datetime import datetime

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.evolution.changes import DEFAULT_LIMIT, changes
from graphmem.evolution.consolidate import consolidate
from graphmem.evolution.forget import forget
from graphmem.evolution.history import history
from graphmem.evolution.records import Change, ConsolidationReport, ForgetReport, History
from graphmem.evolution.supersede import supersede
from graphmem.observability import MEMORY_METRICS
from graphmem.pairs import PairClassifier


class TimeOps:
    """supersede, history, changes, consolidate, forget — every one scoped to a space."""

    store: Store
    embedder: Embedder
    settings: Settings

    def supersede(
        self,
        space: str,
        new_id: str,
        old_id: str,
        at: datetime | str,
        reason: str | None = None,
        by: str | None = None,
    ) -> int:
        """Link `new_id` over `old_id` from `at`; returns 1 when the link is new, 0 when it already existed."""
        return supersede(self.store, space, new_id, old_id, at, reason=reason, by=by)

    def history(self, space: str, id: str) -> History:
        """The whole version chain around `id`, oldest first, with dates, authors and reasons."""
        return history(self.store, space, id)

    def changes(
        self, space: str, since: datetime | str, until: datetime | str, limit: int = DEFAULT_LIMIT
    ) -> list[Change]:
        """What was added, superseded or merged with valid time in [since, until), and by whom."""
        return changes(self.store, space, since, until, limit=limit)

    def consolidate(
        self, space: str, *, classifier: PairClassifier | None = None, dry_run: bool = False
    ) -> ConsolidationReport:
        """One consolidation pass (conflicts superseded, restatements merged); never deletes."""
        report = consolidate(self.store, space, self.settings, classifier, dry_run=dry_run)
        if not dry_run:
            MEMORY_METRICS.observe_consolidation(report.pairs_seen, report.superseded, report.merged)
        return report

    def forget(
        self,
        space: str,
        id: str | None = None,
        by: str = "",
        *,
        author: str | None = None,
        all: bool = False,
        reason: str | None = None,
    ) -> ForgetReport:
        """Erase an id, an author's records or a whole space, audited and resumable. Callers check admin rights."""
        return forget(self.store, space, id, by, author=author, all=all, reason=reason,
                      batch_size=self.settings.forget_batch_size)  # fmt: skip
