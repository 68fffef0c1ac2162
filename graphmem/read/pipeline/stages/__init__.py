"""The refine stages, one module each, grouped by what they take, in the order recall runs them."""

from graphmem.read.pipeline.stages.base import SIGNAL_PREFIX, HitStage, RankStage, Stage
from graphmem.read.pipeline.stages.bridges import BridgesStage
from graphmem.read.pipeline.stages.contradictions import ContradictionsStage
from graphmem.read.pipeline.stages.cover import CoverStage
from graphmem.read.pipeline.stages.dates import DatesStage
from graphmem.read.pipeline.stages.episodes import EpisodesStage
from graphmem.read.pipeline.stages.latest import LatestStage
from graphmem.read.pipeline.stages.numbers import NumbersStage
from graphmem.read.pipeline.stages.packing import PackingStage
from graphmem.read.pipeline.stages.related import RelatedStage
from graphmem.read.pipeline.stages.repeats import RepeatsStage
from graphmem.read.pipeline.stages.slot_pairs import SlotPairsStage
from graphmem.read.pipeline.stages.slots import SlotsStage
from graphmem.read.pipeline.stages.value import ValueStage
from graphmem.read.pipeline.stages.versions import VersionsStage

# Score stages add to each candidate's fused score (multi-hop rounds rank with them too).
SCORE_STAGES: tuple[RankStage, ...] = (ValueStage(), DatesStage(), CoverStage(), NumbersStage())
# Rerank stages reorder the scored candidates; `latest` then cuts them to the top k.
RERANK_STAGES: tuple[RankStage, ...] = (VersionsStage(), SlotPairsStage(), SlotsStage(), BridgesStage())
CUT_STAGE = LatestStage()
# Hit stages change the chosen hits; expand stages add to the result beside them and run side by side.
HIT_STAGES: tuple[HitStage, ...] = (RepeatsStage(),)
EXPAND_STAGES: tuple[HitStage, ...] = (RelatedStage(), ContradictionsStage(), EpisodesStage())
PACK_STAGE = PackingStage()

__all__ = [
    "CUT_STAGE",
    "EXPAND_STAGES",
    "HIT_STAGES",
    "PACK_STAGE",
    "RERANK_STAGES",
    "SCORE_STAGES",
    "SIGNAL_PREFIX",
    "HitStage",
    "RankStage",
    "Stage",
]
