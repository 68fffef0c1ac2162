"""Read path: legs (vector, lexical, tag votes, subgoal routing), weighted RRF, the value model, as-of
scoping, latest-dated slots, episodic expansion, evidence packing, reasoning, multi-hop and provenance.

The public surface is `MemoryGraph`'s `ReadOps` methods and the result types exported here.
"""

from graphmem.read.asof import AsOf
from graphmem.read.recall import LEGS, VARIANTS, RecallOptions, recall, recall_sources
from graphmem.read.results import (
    EpisodeUnit,
    EvidenceUnit,
    ExpandedEpisode,
    LegSignal,
    LineageEdge,
    Plan,
    Provenance,
    Reasoned,
    RecallHit,
    RecallResult,
    SourceHit,
    TagMatch,
    TagVoteResult,
    Version,
)
from graphmem.read.value_model import ValueWeights

__all__ = [
    "LEGS",
    "VARIANTS",
    "AsOf",
    "EpisodeUnit",
    "EvidenceUnit",
    "ExpandedEpisode",
    "LegSignal",
    "LineageEdge",
    "Plan",
    "Provenance",
    "Reasoned",
    "RecallHit",
    "RecallOptions",
    "RecallResult",
    "SourceHit",
    "TagMatch",
    "TagVoteResult",
    "ValueWeights",
    "Version",
    "recall",
    "recall_sources",
]
