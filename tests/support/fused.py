"""A fused candidate for unit tests of the rerank stages: an episodic unit with a score and an optional day."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.read.fusion import Fused
from graphmem.read.legs.base import UnitRow


def fused(id: str, score: float, day: int | None, text: str) -> Fused:
    row = UnitRow(
        id=id, kind="episodic", text=text, score=score, similarity=0.5,
        event_at=datetime(2024, 1, day, tzinfo=UTC) if day else None, author=None, status="active",
        valid_from=None, valid_to=None, importance=1.0, credibility=1.0, ret=None, uses=None,
        episode_id=None, seq=None, unit_kind=None,
    )  # fmt: skip
    return Fused(row, score)
