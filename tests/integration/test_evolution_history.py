"""Bi-temporal answers: a value that changed three times, its history, and the changes in a window."""

from __future__ import annotations

import itertools
from datetime import datetime

import pytest

from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput, NotFound
from graphmem.evolution.changes import changes
from graphmem.evolution.history import history
from graphmem.evolution.supersede import supersede
from graphmem.timeutil import utc_now
from tests.support.evolution_fixtures import GraphBuilder, day

pytestmark = pytest.mark.integration

TIMELINE = [
    ("v1", "The rent is 900 EUR", "2023-01-01", "ana"),
    ("v2", "The rent is 950 EUR", "2023-07-01", "bo"),
    ("v3", "The rent is 1000 EUR", "2024-01-01", "cy"),
    ("v4", "The rent is 1100 EUR", "2024-07-01", "dee"),
]


@pytest.fixture
def rent(store: Store, space: str) -> GraphBuilder:
    """A rent that changed three times, each change linked with an author and a reason."""
    graph = GraphBuilder(store, space, HashingEmbedder(384))
    for name, text, start, author in TIMELINE:
        graph.semantic(name, text, valid_from=day(start), tags=("rent",), author=author)
    for (old, _, _, _), (new, _, start, author) in itertools.pairwise(TIMELINE):
        supersede(
            store, space, graph.qualify(new), graph.qualify(old), day(start), reason=f"raise by {author}", by=author
        )
    return graph


def _as_of(graph: GraphBuilder, when: datetime, known_at: datetime | None = None) -> list[str]:
    rows = graph.store.read(
        "audit/facts_as_of", space=graph.space, as_of=when, known_at=known_at or utc_now(), tag="rent"
    )
    return [row["text"] for row in rows]


def test_a_value_changed_three_times_answers_for_now_and_each_interval(rent: GraphBuilder) -> None:
    assert _as_of(rent, utc_now()) == ["The rent is 1100 EUR"]
    assert _as_of(rent, day("2023-03-15")) == ["The rent is 900 EUR"]
    assert _as_of(rent, day("2023-07-01")) == ["The rent is 950 EUR"]  # the change day belongs to the new value
    assert _as_of(rent, day("2023-12-31")) == ["The rent is 950 EUR"]
    assert _as_of(rent, day("2024-03-01")) == ["The rent is 1000 EUR"]
    assert _as_of(rent, day("2024-08-01")) == ["The rent is 1100 EUR"]
    assert _as_of(rent, day("2022-12-31")) == []


def test_nothing_is_known_before_it_was_recorded(rent: GraphBuilder) -> None:
    assert _as_of(rent, day("2024-08-01"), known_at=day("2019-12-31")) == []


def test_a_supersession_counts_only_once_it_was_recorded(rent: GraphBuilder) -> None:
    """The versions were recorded in 2020, the supersessions only today: as known in 2021, nothing had
    been superseded yet, so every version dated before the as-of date still held."""
    believed_then = _as_of(rent, day("2024-08-01"), known_at=day("2021-01-01"))
    assert sorted(believed_then) == sorted(text for _, text, _, _ in TIMELINE)
    assert _as_of(rent, day("2023-03-15"), known_at=day("2021-01-01")) == ["The rent is 900 EUR"]


def test_history_is_the_whole_chain_in_order_from_any_version(rent: GraphBuilder) -> None:
    for start in ("v1", "v3", "v4"):
        chain = history(rent.store, rent.space, rent.qualify(start))
        assert [v.text for v in chain.versions] == [text for _, text, _, _ in TIMELINE]
        assert [v.author for v in chain.versions] == ["ana", "bo", "cy", "dee"]
        assert [v.status for v in chain.versions] == ["superseded"] * 3 + ["active"]
        assert [v.valid_to for v in chain.versions] == [day("2023-07-01"), day("2024-01-01"), day("2024-07-01"), None]
        assert [(link.by, link.reason, link.at) for link in chain.links] == [
            ("bo", "raise by bo", day("2023-07-01")),
            ("cy", "raise by cy", day("2024-01-01")),
            ("dee", "raise by dee", day("2024-07-01")),
        ]
        assert [v.text for v in chain.current] == ["The rent is 1100 EUR"]


def test_history_of_an_unknown_id_names_the_field(rent: GraphBuilder) -> None:
    with pytest.raises(NotFound) as err:
        history(rent.store, rent.space, "fact_missing")
    assert err.value.field == "id"
    with pytest.raises(NotFound):  # another space's id is not visible
        history(rent.store, rent.space + "-x", rent.qualify("v1"))


def test_changes_in_a_window_lists_exactly_what_happened_in_it(rent: GraphBuilder) -> None:
    window = changes(rent.store, rent.space, "2023-06-01T00:00:00Z", "2024-02-01T00:00:00Z")
    superseded = [(c.id, c.other_id, c.by, c.reason) for c in window if c.change == "superseded"]
    assert superseded == [
        (rent.qualify("v2"), rent.qualify("v1"), "bo", "raise by bo"),
        (rent.qualify("v3"), rent.qualify("v2"), "cy", "raise by cy"),
    ]
    added = [(c.id, c.by) for c in window if c.change == "added"]
    assert added == [(rent.qualify("v2"), "bo"), (rent.qualify("v3"), "cy")]
    assert len(window) == 4
    assert changes(rent.store, rent.space, "2025-01-01", "2026-01-01") == []


def test_changes_rejects_a_backwards_window(rent: GraphBuilder) -> None:
    with pytest.raises(InvalidInput) as err:
        changes(rent.store, rent.space, "2024-01-01", "2023-01-01")
    assert err.value.field == "until"
