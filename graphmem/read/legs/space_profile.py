"""What the lexical leg's BM25 knows of a space beyond its live counts: how many units of a kind it holds,
their mean length and the terms of a sample of them (all of them up to `SAMPLE`). Read once and kept; read
again at once when a live count shows the space changed, and in the background (the kept profile still
answering) when older than `ttl` seconds."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from graphmem.db import Store
from graphmem.read.legs.base import kind_pool

SAMPLE = 2000
MAX_PROFILES = 1024


@dataclass(frozen=True)
class SpaceProfile:
    units: int
    mean_length: float
    sample: tuple[frozenset[str], ...]
    read_at: float

    def share(self, term: str) -> float:
        """The share of the sampled units holding `term` (0 when nothing was sampled)."""
        if not self.sample:
            return 0.0
        return sum(1 for terms in self.sample if term in terms) / len(self.sample)


class SpaceProfiles:
    """Per (store, space, kind) profiles, the least recently used dropped beyond `MAX_PROFILES`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._profiles: OrderedDict[tuple[int, str, str], SpaceProfile] = OrderedDict()
        self._refreshing: set[tuple[int, str, str]] = set()

    def get(
        self,
        store: Store,
        space: str,
        kind: str,
        ttl: float,
        cut: Callable[[str], Sequence[str]],
        units: int | None = None,
    ) -> SpaceProfile:
        """The kind's profile in `space`: read now when there is none or it counts other than `units` (a
        live count, when the caller has an exact one), else the kept one (a stale one is refreshed in the
        background). `cut` makes a unit's text into its terms."""
        key = (id(store), space, kind)
        with self._lock:
            profile = self._profiles.get(key)
            if profile is not None and (units is None or units == profile.units):
                self._profiles.move_to_end(key)
                stale = time.monotonic() - profile.read_at > ttl
                if stale and key not in self._refreshing:
                    self._refreshing.add(key)
                    kind_pool().submit(self._refresh, store, key, cut)
                return profile
        return self._refresh(store, key, cut)

    def _refresh(self, store: Store, key: tuple[int, str, str], cut: Callable[[str], Sequence[str]]) -> SpaceProfile:
        _, space, kind = key
        try:
            row = store.read("read/lexical_profile", space=space, kind=kind, sample=SAMPLE)[0]
            sample = [cut(text or "") for text in row["sample"]]
            profile = SpaceProfile(
                units=int(row["units"]),
                mean_length=sum(len(terms) for terms in sample) / len(sample) if sample else 1.0,
                sample=tuple(frozenset(terms) for terms in sample),
                read_at=time.monotonic(),
            )
            with self._lock:
                self._profiles[key] = profile
                self._profiles.move_to_end(key)
                while len(self._profiles) > MAX_PROFILES:
                    self._profiles.popitem(last=False)
            return profile
        finally:
            with self._lock:
                self._refreshing.discard(key)


PROFILES = SpaceProfiles()
