"""The dense query leaves out the names of a space's main participants, and only theirs."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.db.store import Store
from graphmem.read.participants import participant_names, without_participants


class AuthorsStore(Store):
    """No server: answers read/space_authors with fixed counts and counts the reads."""

    def __init__(self, units: dict[str, int], sampled: int) -> None:
        self.units, self.sampled, self.reads = units, sampled, 0

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        assert name == "read/space_authors" and params["sample"] > 0
        self.reads += 1
        return [{"author": a, "units": n, "sampled": self.sampled} for a, n in self.units.items()]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What country is Melanie's grandma from?", "What country is grandma from?"),
        ("What did Caroline and melanie see during their camping trip?", "What did and see during their camping trip?"),
        ("Who is Melanie?", "Who is Melanie?"),  # nothing would be left to search for
        ("What did Melanies say?", "What did Melanies say?"),  # another word, kept
    ],
)
def test_participant_names_and_their_possessives_leave_the_query(query, expected):
    assert without_participants(query, frozenset({"Melanie", "Caroline"})) == expected


def test_main_participants_are_authors_of_a_large_share():
    chat = AuthorsStore({"Caroline": 211, "Melanie": 208}, sampled=419)
    assert participant_names(chat, "conv-1", 0.25) == {"Caroline", "Melanie"}
    org = AuthorsStore({"Maya Patel": 84, "Nia Osei": 47, "Ethan Brooks": 45}, sampled=443)
    assert participant_names(org, "helix", 0.25) == frozenset()  # many authors: nobody's name is left out
    assert participant_names(chat, "conv-2", 1.5) == frozenset() and chat.reads == 1  # above 1: off


def test_a_new_main_participant_counts_at_once_not_after_a_process_cache_expires():
    """Two service instances must answer alike right after a write through either: no per-process cache."""
    chat = AuthorsStore({"Caroline": 211, "Melanie": 208}, sampled=419)
    assert participant_names(chat, "conv-3", 0.25) == {"Caroline", "Melanie"}
    chat.units, chat.sampled = {"Caroline": 150, "Melanie": 150, "Jon": 200}, 500  # Jon joined the chat
    assert participant_names(chat, "conv-3", 0.25) == {"Caroline", "Melanie", "Jon"} and chat.reads == 2
