"""Episodic expansion: when several hits (>= 3 by default) come from one Episode (a session or
trajectory), that episode comes back whole, in order, as evidence."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import native_time
from graphmem.read.results import EpisodeUnit, ExpandedEpisode, RecallHit


def episodes_to_expand(hits: Sequence[RecallHit], min_hits: int) -> dict[str, int]:
    """Episode id -> hit count, for episodes with at least `min_hits` episodic hits."""
    counts = Counter(h.episode_id for h in hits if h.kind == "episodic" and h.episode_id)
    return {eid: n for eid, n in counts.items() if eid and n >= min_hits}


def expand_episodes(
    store: Store, space: str, scope: AsOf, hits: Sequence[RecallHit], min_hits: int
) -> list[ExpandedEpisode]:
    """The qualifying episodes, whole and in order, units valid in `scope`; most hits first."""
    counts = episodes_to_expand(hits, min_hits)
    if not counts:
        return []
    rows = store.read("read/episode_units", space=space, episode_ids=list(counts), **scope.params())
    episodes: dict[str, ExpandedEpisode] = {}
    for row in rows:
        episode = episodes.get(row["episode_id"])
        if episode is None:
            episode = episodes[row["episode_id"]] = ExpandedEpisode(
                episode_id=row["episode_id"],
                session_id=row.get("session_id"),
                goal=row.get("goal"),
                hit_count=counts[row["episode_id"]],
                units=[],
            )
        episode.units.append(
            EpisodeUnit(
                id=row["id"],
                seq=row.get("seq"),
                text=row.get("text") or "",
                event_at=native_time(row.get("event_at")),
                author=row.get("author"),
            )
        )
    return sorted(episodes.values(), key=lambda e: -e.hit_count)
