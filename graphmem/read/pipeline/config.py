"""`RecallConfig`: what one recall runs — the question's reading, the legs and their weights, the fusion and
each refine stage with its own settings and an `enabled` switch — typed, validated, built from `Settings`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphmem.config import Settings
from graphmem.errors import InvalidInput

LEGS = ("vector", "lexical", "tagvote", "tagdocs", "subgoal")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlanSettings(_Model):
    """How the question is read before any leg runs."""

    as_of_from_question: bool = True  # a date the question states as its as-of bounds the read
    participants: bool = True  # the dense query leaves out the space's main participants
    participant_share: float = Field(0.25, ge=0)


class LegSettings(_Model):
    """Which legs rank, how they are weighted in fusion, and how deep they look."""

    use: tuple[str, ...] = LEGS
    caller_may_choose: bool = True  # a caller's explicit `legs` replace `use`
    weights: dict[str, float] = Field(default_factory=dict)
    candidates: int = Field(50, ge=1)
    vector_overfetch: int = Field(2, ge=1)
    lexical_stats_cap: int = Field(500, ge=1)  # BM25 over the space's own counts, live up to this
    lexical_profile_ttl: float = Field(300.0, ge=0)  # seconds a bigger space's count and sample are kept
    tag_min_cosine: float = Field(0.8, gt=0, le=1)
    tag_exact_weight: float = Field(5.0, ge=0)
    tag_fuzzy_weight: float = Field(1.0, ge=0)
    tag_dense_bonus: float = Field(2.0, ge=0)
    tag_by_rarity: bool = True  # tag votes weighted by how rare a tag is (else one vote per tag)
    dense_facts: int | None = Field(None, ge=1)  # keep only this many dense facts (None = all)
    subgoals: int = Field(5, ge=1)


class FusionSettings(_Model):
    """`rrf`: weighted reciprocal-rank fusion normalised to [0, 1]; `cosine`: the best cosine alone."""

    method: Literal["rrf", "cosine"] = "rrf"
    rrf_k: int = Field(60, ge=1)


class StageSettings(_Model):
    enabled: bool = True


class ValueSettings(StageSettings):
    weights: dict[str, float] | None = None  # None: GRAPHMEM_READ_VALUE_WEIGHTS (per space when configured)
    recency_half_life_days: float = Field(180.0, gt=0)


class DatesSettings(StageSettings):
    weight: float = Field(0.1, ge=0)


class CoverSettings(StageSettings):
    bonus: float = Field(0.3, ge=0)
    max_documents: int = Field(5, ge=1)


class NumbersSettings(StageSettings):
    weight: float = Field(0.6, ge=0)
    window: int = Field(30, ge=0)


class VersionsSettings(StageSettings):
    window: int = Field(30, ge=0)
    cosine: float = Field(0.65, ge=-1, le=1)
    subject_cosine: float = Field(0.3, ge=-1, le=1)
    margin: float = Field(0.1, ge=0)


class SlotsSettings(StageSettings):
    enabled: bool = False
    weight: float = Field(0.0, ge=0)
    margin: float = Field(0.1, ge=0)
    saturation: float = Field(0.8, gt=0, le=1)
    window: int = Field(30, ge=0)
    rarity_cap: int = Field(1000, ge=1)


class SlotPairsSettings(StageSettings):
    window: int = Field(30, ge=0)
    overlap: float = Field(0.7, ge=0, le=1)  # weighted Jaccard of two candidates' question words, to state one slot
    shared: float = Field(0.6, ge=0, le=1)  # share of the question's weight both hold (and the anchor alone)
    tier: float = Field(0.1, ge=0, le=1)  # members within this share of the anchor's coverage read in the top tier
    cosine: float = Field(-1.0, ge=-1, le=1)  # and a pair's texts (own or source) at least this near
    lift: bool = True  # the group goes above the window's other candidates (else it keeps its places)
    event_gate: bool = True  # leave a question with an event/change cue word alone (English; switchable)
    defer: bool = True  # when the wording stage (`versions`) moved a candidate, keep its order within the group
    defer_bounded: bool = False  # ... for a question bounded by an as-of date too (else newest first there)
    rarity_cap: int = Field(1000, ge=1)


class BridgesSettings(StageSettings):
    enabled: bool = False
    weight: float = Field(0.0, ge=0)
    seeds: int = Field(2, ge=0)
    window: int = Field(0, ge=0)
    max_degree: int = Field(50, ge=1)
    vote: float = Field(0.0, ge=0)
    per_seed: int = Field(1, ge=1)


class LatestSettings(StageSettings):
    slots: int = Field(3, ge=0)


class MultihopSettings(StageSettings):
    max_rounds: int = Field(3, ge=1)


class RelatedSettings(StageSettings):
    seeds: int = Field(5, ge=0)
    per_seed: int = Field(3, ge=1)
    window_days: int = Field(3, ge=0)
    min_score: float = 0.65
    tag_weight: float = Field(0.1, ge=0)
    max_tag_degree: int = Field(50, ge=1)


class ContradictionsSettings(StageSettings):
    candidates: int = Field(30, ge=0)


class EpisodesSettings(StageSettings):
    min_hits: int = Field(3, ge=1)


class PackingSettings(StageSettings):
    chars: int = Field(40_000, ge=100)
    tokens: int | None = Field(None, ge=16)


class Stages(_Model):
    """The refine stages in the order recall runs them (see `graphmem.read.pipeline.stages`)."""

    value: ValueSettings = ValueSettings()
    dates: DatesSettings = DatesSettings()
    cover: CoverSettings = CoverSettings()
    numbers: NumbersSettings = NumbersSettings()
    versions: VersionsSettings = VersionsSettings()
    slots: SlotsSettings = SlotsSettings()
    slot_pairs: SlotPairsSettings = SlotPairsSettings()
    bridges: BridgesSettings = BridgesSettings()
    latest: LatestSettings = LatestSettings()
    repeats: StageSettings = StageSettings()
    multihop: MultihopSettings = MultihopSettings()
    related: RelatedSettings = RelatedSettings()
    contradictions: ContradictionsSettings = ContradictionsSettings()
    episodes: EpisodesSettings = EpisodesSettings()
    packing: PackingSettings = PackingSettings()


STAGE_NAMES: tuple[str, ...] = tuple(Stages.model_fields)
PLAN_SWITCHES = ("participants", "as_of_from_question")
SWITCHABLE = (*STAGE_NAMES, *PLAN_SWITCHES, *LEGS)  # what `RecallConfig.without` can switch off


class RecallConfig(_Model):
    """One recall's whole configuration; `graphmem.read.pipeline.recipes` names ready ones."""

    name: str = "hybrid"
    plan: PlanSettings = PlanSettings()
    legs: LegSettings = LegSettings()
    fusion: FusionSettings = FusionSettings()
    stages: Stages = Stages()

    @classmethod
    def parse(cls, data: dict[str, Any]) -> RecallConfig:
        """A config from plain data; a bad field raises `InvalidInput` naming it (e.g. `stages.bogus`)."""
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "config"
            raise InvalidInput(field, first["msg"]) from None

    def stage(self, name: str) -> StageSettings:
        """The settings of the stage called `name`."""
        if name not in STAGE_NAMES:
            raise InvalidInput("stage", f"unknown stage {name!r}; expected one of {', '.join(STAGE_NAMES)}")
        settings: StageSettings = getattr(self.stages, name)
        return settings

    def enabled(self, name: str) -> bool:
        return self.stage(name).enabled

    def without(self, name: str) -> RecallConfig:
        """This config with one stage, plan switch or leg turned off (`InvalidInput` for an unknown name)."""
        if name in STAGE_NAMES:
            stage = self.stage(name).model_copy(update={"enabled": False})
            stages = self.stages.model_copy(update={name: stage})
            return self.model_copy(update={"name": f"{self.name}-no:{name}", "stages": stages})
        if name in PLAN_SWITCHES:
            plan = self.plan.model_copy(update={name: False})
            return self.model_copy(update={"name": f"{self.name}-no:{name}", "plan": plan})
        if name in LEGS:
            legs = self.legs.model_copy(update={"use": tuple(leg for leg in self.legs.use if leg != name)})
            return self.model_copy(update={"name": f"{self.name}-no:{name}", "legs": legs})
        known = ", ".join(SWITCHABLE)
        raise InvalidInput("variant", f"nothing called {name!r} to switch off; expected one of {known}")


def from_settings(settings: Settings) -> RecallConfig:
    """The default (hybrid) config as the settings (GRAPHMEM_READ_* variables) describe it."""
    s = settings
    return RecallConfig(
        name="hybrid",
        plan=PlanSettings(
            as_of_from_question=s.read_as_of_from_question,
            participant_share=s.read_participant_share,
        ),
        legs=LegSettings(
            weights=dict(s.read_leg_weights),
            candidates=s.read_candidates,
            vector_overfetch=s.read_vector_overfetch,
            lexical_stats_cap=s.read_lexical_stats_cap,
            lexical_profile_ttl=s.read_lexical_profile_ttl,
            tag_min_cosine=s.read_tag_min_cosine,
            tag_exact_weight=s.read_tag_exact_weight,
            tag_fuzzy_weight=s.read_tag_fuzzy_weight,
            tag_dense_bonus=s.read_tag_dense_bonus,
            subgoals=s.read_subgoals,
        ),
        fusion=FusionSettings(rrf_k=s.read_rrf_k),
        stages=Stages(
            value=ValueSettings(recency_half_life_days=s.read_recency_half_life_days),
            dates=DatesSettings(enabled=s.read_date_match_weight > 0, weight=s.read_date_match_weight),
            cover=CoverSettings(
                enabled=s.read_cover_bonus > 0, bonus=s.read_cover_bonus, max_documents=s.read_cover_max_documents
            ),
            numbers=NumbersSettings(
                enabled=s.read_numbers_weight > 0 and s.read_numbers_window > 1,
                weight=s.read_numbers_weight,
                window=s.read_numbers_window,
            ),
            versions=VersionsSettings(
                enabled=s.read_version_window > 1,
                window=s.read_version_window,
                cosine=s.read_version_cosine,
                subject_cosine=s.read_version_subject_cosine,
                margin=s.read_version_margin,
            ),
            slots=SlotsSettings(
                enabled=s.read_slot_weight > 0 and s.read_slot_window > 0,
                weight=s.read_slot_weight,
                margin=s.read_slot_margin,
                saturation=s.read_slot_saturation,
                window=s.read_slot_window,
                rarity_cap=s.read_slot_rarity_cap,
            ),
            slot_pairs=SlotPairsSettings(
                enabled=s.read_slot_pairs_window > 1,
                window=s.read_slot_pairs_window,
                overlap=s.read_slot_pairs_overlap,
                shared=s.read_slot_pairs_shared,
                tier=s.read_slot_pairs_tier,
                cosine=s.read_slot_pairs_cosine,
                event_gate=s.read_slot_pairs_event_gate,
                defer=s.read_slot_pairs_defer,
                defer_bounded=s.read_slot_pairs_defer_bounded,
                rarity_cap=s.read_slot_rarity_cap,
            ),
            bridges=BridgesSettings(
                enabled=s.read_bridge_window > 0 and (s.read_bridge_weight > 0 or s.read_bridge_vote > 0),
                weight=s.read_bridge_weight,
                seeds=s.read_bridge_seeds,
                window=s.read_bridge_window,
                max_degree=s.read_bridge_max_degree,
                vote=s.read_bridge_vote,
                per_seed=s.read_bridge_per_seed,
            ),
            latest=LatestSettings(slots=s.read_latest_slots),
            multihop=MultihopSettings(max_rounds=s.read_multihop_rounds),
            related=RelatedSettings(
                seeds=s.read_related_seeds,
                per_seed=s.read_related_per_seed,
                window_days=s.read_related_window_days,
                min_score=s.read_related_min_score,
                tag_weight=s.read_related_tag_weight,
                max_tag_degree=s.read_related_max_tag_degree,
            ),
            contradictions=ContradictionsSettings(candidates=s.read_contradiction_candidates),
            episodes=EpisodesSettings(min_hits=s.read_expand_min_hits),
            packing=PackingSettings(chars=s.read_evidence_chars, tokens=s.read_evidence_tokens),
        ),
    )
