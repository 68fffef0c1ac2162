"""The lexical leg's kept space profiles: read once, read again when a live count differs, refreshed in the
background when stale, and the share of sampled units holding a term."""

from __future__ import annotations

import time

from graphmem.read.legs import space_profile
from graphmem.read.legs.lexical import unit_terms
from graphmem.read.legs.space_profile import SpaceProfile, SpaceProfiles


class FakeStore:
    """Answers `read/lexical_profile` from a list of texts it can be told to change (no Neo4j needed)."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.reads = 0

    def read(self, name: str, **params):
        assert name == "read/lexical_profile"
        self.reads += 1
        return [{"units": len(self.texts), "sample": self.texts[: params["sample"]]}]


def test_share_counts_sampled_units_holding_a_term():
    profile = SpaceProfile(4, 2.0, (frozenset({"a"}), frozenset({"a", "b"}), frozenset(), frozenset({"b"})), 0.0)
    assert profile.share("a") == 0.5 and profile.share("c") == 0.0
    assert SpaceProfile(0, 1.0, (), 0.0).share("a") == 0.0


def test_a_profile_is_read_once_and_again_when_the_live_count_differs():
    store = FakeStore(["crane schedule", "harbour pilot boards"])
    profiles = SpaceProfiles()
    first = profiles.get(store, "s", "semantic", 300, unit_terms, 2)
    assert (first.units, first.mean_length, store.reads) == (2, 2.5, 1)
    assert profiles.get(store, "s", "semantic", 300, unit_terms, 2) is first and store.reads == 1
    store.texts.append("pilot")
    again = profiles.get(store, "s", "semantic", 300, unit_terms, 3)
    assert (again.units, store.reads) == (3, 2)
    # without a live count (a big space), the kept one answers
    store.texts.append("crane")
    assert profiles.get(store, "s", "semantic", 300, unit_terms) is again and store.reads == 2


def test_a_stale_profile_answers_while_it_is_read_again_in_the_background():
    store = FakeStore(["crane"])
    profiles = SpaceProfiles()
    old = profiles.get(store, "s", "semantic", 0.0, unit_terms)
    store.texts.append("pilot")
    time.sleep(0.01)
    assert profiles.get(store, "s", "semantic", 0.0, unit_terms) is old
    deadline = time.monotonic() + 5
    while store.reads < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.05)
    assert profiles.get(store, "s", "semantic", 300, unit_terms).units == 2


def test_profiles_beyond_the_bound_drop_the_least_recently_used(monkeypatch):
    monkeypatch.setattr(space_profile, "MAX_PROFILES", 2)
    store = FakeStore(["crane"])
    profiles = SpaceProfiles()
    for name in ("a", "b", "a", "c"):
        profiles.get(store, name, "semantic", 300, unit_terms)
    reads = store.reads
    profiles.get(store, "a", "semantic", 300, unit_terms)
    assert store.reads == reads  # "a" was used last but one: kept
    profiles.get(store, "b", "semantic", 300, unit_terms)
    assert store.reads == reads + 1  # "b" was dropped
