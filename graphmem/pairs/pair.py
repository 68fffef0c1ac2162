"""A candidate pair: two active nodes of one label, with what a pair classifier reads of each."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class PairSide:
    """One node of a candidate pair, with what the classifiers read."""

    id: str
    text: str
    valid_from: datetime
    recorded_at: datetime | None
    author: str | None
    credibility: float | None
    tags: tuple[str, ...]


@dataclass(frozen=True)
class CandidatePair:
    """Two active nodes of the same label; `similarity` is the cosine of their embeddings (-1..1)."""

    label: str
    a: PairSide
    b: PairSide
    similarity: float | None
    shared_tags: int
    shares_episode: bool

    @property
    def key(self) -> tuple[str, str]:
        return (self.a.id, self.b.id)

    def ordered_by_time(self) -> tuple[PairSide, PairSide] | None:
        """(earlier, later) by valid_from then recorded_at; None when both are dated identically."""
        ka = (self.a.valid_from, self.a.recorded_at)
        kb = (self.b.valid_from, self.b.recorded_at)
        if ka == kb:
            return None
        return (self.a, self.b) if ka < kb else (self.b, self.a)
