"""Time and evolution: dated supersession, version history, change windows, consolidation, erase.

Nothing here overwrites: superseded and merged versions keep their text, dates and edges; only `forget`
deletes, and it leaves an audit record. `MemoryGraph` exposes these through `graphmem.evolution.ops.TimeOps`.
"""

from __future__ import annotations

from graphmem.evolution.changes import changes
from graphmem.evolution.consolidate import consolidate
from graphmem.evolution.forget import forget
from graphmem.evolution.history import history
from graphmem.evolution.records import (
    Change,
    ConsolidationReport,
    ForgetReport,
    History,
    Version,
    VersionLink,
)
from graphmem.evolution.supersede import apply_supersessions, supersede

__all__ = [
    "Change",
    "ConsolidationReport",
    "ForgetReport",
    "History",
    "Version",
    "VersionLink",
    "apply_supersessions",
    "changes",
    "consolidate",
    "forget",
    "history",
    "supersede",
]
