"""The value model: relevance, recency, importance, return and credibility (plus uses for procedures),
all counted, each in [0, 1], weighted and added to the normalised RRF score.

Neutral values keep kinds comparable: a fact has no return, so its return component is 0.5, the same as
a procedure whose return is 0. Weights come from settings, per space when configured.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.read.legs.base import UnitRow

COMPONENTS = ("relevance", "recency", "importance", "return", "credibility", "uses")
_USES_SATURATION = math.log1p(50)


@dataclass(frozen=True)
class ValueWeights:
    relevance: float = 0.3
    recency: float = 0.05
    importance: float = 0.05
    return_: float = 0.1
    credibility: float = 0.05
    uses: float = 0.02

    @classmethod
    def from_mapping(cls, values: Mapping[str, float], field: str = "value_weights") -> ValueWeights:
        unknown = set(values) - set(COMPONENTS)
        if unknown:
            raise InvalidInput(field, f"unknown component(s) {sorted(unknown)}; expected {list(COMPONENTS)}")
        base = cls()
        merged = {name: float(values.get(name, base.get(name))) for name in COMPONENTS}
        if any(v < 0 or not math.isfinite(v) for v in merged.values()):
            raise InvalidInput(field, "weights must be finite and >= 0")
        return cls(
            relevance=merged["relevance"],
            recency=merged["recency"],
            importance=merged["importance"],
            return_=merged["return"],
            credibility=merged["credibility"],
            uses=merged["uses"],
        )

    @classmethod
    def for_space(cls, settings: Settings, space: str) -> ValueWeights:
        values = dict(settings.read_value_weights)
        values.update(settings.read_value_weights_by_space.get(space, {}))
        return cls.from_mapping(values, "GRAPHMEM_READ_VALUE_WEIGHTS")

    @classmethod
    def zero(cls) -> ValueWeights:
        return cls(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    def get(self, name: str) -> float:
        return float(getattr(self, "return_" if name == "return" else name))

    @cached_property
    def ordered(self) -> tuple[float, ...]:
        """The weights in `COMPONENTS` order."""
        return tuple(self.get(name) for name in COMPONENTS)


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value))


def components(row: UnitRow, as_of: datetime, half_life_days: float) -> dict[str, float]:
    """Each component of `row`'s value in [0, 1]."""
    relevance = _unit(row.similarity) if row.similarity is not None else 0.0
    recency = 0.5
    if row.event_at is not None:
        age_days = max(0.0, (as_of - row.event_at).total_seconds() / 86400.0)
        recency = 0.5 ** (age_days / half_life_days)
    # Stored importance = weight x (sources + uses) (graphmem/evolution/importance); absent = one source.
    importance = row.importance if row.importance is not None else 1.0
    credibility = row.credibility if row.credibility is not None else 1.0
    ret = 0.5 if row.ret is None else (_clamp(row.ret) + 1.0) / 2.0
    uses = 0.0 if not row.uses else min(1.0, math.log1p(max(0, row.uses)) / _USES_SATURATION)
    return {
        "relevance": relevance,
        "recency": recency,
        "importance": importance / (1.0 + importance) if importance > 0 else 0.0,
        "return": ret,
        "credibility": _unit(credibility),
        "uses": uses,
    }


def _clamp(value: float) -> float:
    return min(1.0, max(-1.0, float(value)))


def value_score(parts: Mapping[str, float], weights: ValueWeights) -> float:
    return sum(weight * parts[name] for name, weight in zip(COMPONENTS, weights.ordered, strict=True))
