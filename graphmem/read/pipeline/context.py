"""`RecallContext`: what one recall's stages share — the question, its config, the legs' run and what the
stages found on the way (facts' subjects, reserved latest ids, expansions, the packed evidence)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.read.leg_run import LegRun
from graphmem.read.pipeline.config import RecallConfig
from graphmem.read.results import Contradiction, ExpandedEpisode, RelatedArtefact
from graphmem.read.value_model import ValueWeights

if TYPE_CHECKING:
    from graphmem.read.packing import EvidencePack
    from graphmem.read.versions import UnitSubject


@dataclass
class RecallContext:
    """One recall in flight. `run` is set once the legs ran; the expand and pack stages fill the rest."""

    store: Store
    embedder: Embedder
    settings: Settings
    config: RecallConfig
    space: str
    text: str
    k: int
    depth: int
    run: LegRun
    hops: int = 1
    latest_slots: int | None = None
    token_budget: int | None = None
    char_budget: int | None = None
    value_weights: ValueWeights | None = None  # the caller's, used where the config fixes none
    subjects: dict[str, UnitSubject] = field(default_factory=dict)
    version_links: dict[str, set[str]] = field(default_factory=dict)  # newer id -> older ids (`versions` stage)
    latest_ids: set[str] = field(default_factory=set)
    episodes: list[ExpandedEpisode] = field(default_factory=list)
    related: list[RelatedArtefact] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    multihop_rounds: int = 1
    pack: EvidencePack | None = None
