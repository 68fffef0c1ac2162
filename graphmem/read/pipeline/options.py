"""`RecallOptions`: everything one recall can vary besides the question, its recipe included."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.config import Settings
from graphmem.read.pipeline.config import RecallConfig
from graphmem.read.pipeline.recipes import recipe
from graphmem.read.value_model import ValueWeights


@dataclass(frozen=True)
class RecallOptions:
    """Everything a recall can vary besides the question; None = the setting's default."""

    as_of: object = None
    known_at: object = None
    mode: str = "auto"
    k: int = 10
    variant: str = "hybrid"  # the recipe's name (see `graphmem.read.pipeline.recipes`)
    legs: Sequence[str] | None = None
    kinds: Sequence[str] | None = None
    tags: Sequence[str] | None = None
    subgoal: str | None = None
    value_weights: ValueWeights | None = None
    latest_slots: int | None = None
    token_budget: int | None = None
    char_budget: int | None = None
    expand: bool = True
    hops: int = 1
    related: bool = True
    config: RecallConfig | None = None  # a config of the caller's own, instead of the named recipe

    def resolve(self, settings: Settings) -> RecallConfig:
        """The config this recall runs: the caller's, else the recipe `variant` names."""
        return self.config if self.config is not None else recipe(self.variant, settings)
