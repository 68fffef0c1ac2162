"""Read path: legs (vector, lexical, tag votes, subgoal routing), weighted RRF, then refine stages (value
model, dates, covering names, versions, slots, latest slots, repeats, multi-hop, related artefacts,
contradictions, episodic expansion, packing) configured by one `RecallConfig` per recipe; reasoning and
provenance.

The public surface is `MemoryGraph`'s `ReadOps` methods and the result types exported here.
"""

from graphmem.read.asof import AsOf
from graphmem.read.pipeline import RECIPES, STAGE_NAMES, RecallConfig, recipe
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
    "RECIPES",
    "STAGE_NAMES",
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
    "RecallConfig",
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
    "recipe",
]
