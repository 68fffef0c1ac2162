"""What every leg returns: `UnitRow`s (one per node, the columns all `cypher/read` unit queries share),
best first, in a `LegRanking`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any, TypeVar

from graphmem.timeutil import FAR_FUTURE

KINDS = ("semantic", "episodic", "procedural")
T = TypeVar("T")


@lru_cache(maxsize=1)
def kind_pool() -> ThreadPoolExecutor:
    # Apart from the legs' own pool, so a leg waiting on its per-kind queries can never starve them.
    return ThreadPoolExecutor(max_workers=12, thread_name_prefix="graphmem-kind")


def per_kind(kinds: Sequence[str], query: Callable[[str], T]) -> list[T]:
    """`query(kind)` for every kind, side by side (one Cypher round trip each), results in kind order."""
    if len(kinds) <= 1:
        return [query(kind) for kind in kinds]
    return list(kind_pool().map(query, kinds))


def native_time(value: Any) -> datetime | None:
    """A Neo4j DateTime, or its ISO text, as an aware datetime; the far-future sentinel stays as it is.

    The unit queries return times as text (`toString`): the driver's pure-Python DateTime decoding costs
    ~50 µs a value, which at hundreds of candidates per recall was most of recall's time. The text keeps
    the instant to the microsecond, as `to_native` does; a named zone (`...+01:00[Europe/Paris]`) keeps
    its offset.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return _from_iso(value)
    if hasattr(value, "to_native"):
        value = value.to_native()
    return value if isinstance(value, datetime) else None


@lru_cache(maxsize=4096)
def _from_iso(text: str) -> datetime:
    # a row's event_at is often its valid_from, and every current row's valid_to the far-future sentinel
    return datetime.fromisoformat(text.split("[", 1)[0])


def open_ended(value: datetime | None) -> datetime | None:
    """None for the far-future sentinel ("still current"), else the value."""
    return None if value is None or value.year >= FAR_FUTURE.year else value


_COLUMNS = frozenset(
    (
        "id", "kind", "text", "score", "similarity", "event_at", "author", "status", "valid_from", "valid_to",
        "importance", "credibility", "ret", "uses", "episode_id", "seq", "unit_kind",
    )
)  # fmt: skip


@dataclass
class UnitRow:
    """One node as a leg found it. `score` is the leg's own score; `similarity` the cosine to the query."""

    id: str
    kind: str
    text: str
    score: float
    similarity: float | None
    event_at: datetime | None
    author: str | None
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    importance: float | None
    credibility: float | None
    ret: float | None
    uses: int | None
    episode_id: str | None
    seq: int | None
    unit_kind: str | None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_record(cls, row: dict[str, Any]) -> UnitRow:
        extra = {} if row.keys() <= _COLUMNS else {k: v for k, v in row.items() if k not in _COLUMNS}
        similarity = row.get("similarity")
        return cls(
            id=row["id"],
            kind=row["kind"],
            text=row.get("text") or "",
            score=float(row["score"]),
            similarity=float(similarity) if similarity is not None else None,
            event_at=native_time(row.get("event_at")),
            author=row.get("author"),
            status=row.get("status") or "active",
            valid_from=native_time(row.get("valid_from")),
            valid_to=open_ended(native_time(row.get("valid_to"))),
            importance=row.get("importance"),
            credibility=row.get("credibility"),
            ret=row.get("ret"),
            uses=row.get("uses"),
            episode_id=row.get("episode_id"),
            seq=row.get("seq"),
            unit_kind=row.get("unit_kind"),
            extra=extra,
        )


@dataclass
class LegRanking:
    """One leg's ranking, best first."""

    leg: str
    rows: list[UnitRow]

    def ids(self) -> list[str]:
        return [r.id for r in self.rows]


def merge_by_score(leg: str, per_kind: list[list[UnitRow]], k: int) -> LegRanking:
    """One ranking from several per-kind lists of the same leg (scores comparable within a leg)."""
    rows = sorted((r for rows in per_kind for r in rows), key=lambda r: r.score, reverse=True)
    return LegRanking(leg, rows[:k])
