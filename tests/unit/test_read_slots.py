"""Version choice by slot (graphmem.read.slots): coverage by rarity-weighted question words, then the newest
version of the slot for a question about a state; no wording of a value or a change is read."""

from __future__ import annotations

import pytest

from graphmem.read.slots import SlotSettings, asks_about_state, choose_by_slot, question_terms, slot_terms
from tests.support.fused import fused

SETTINGS = SlotSettings(weight=0.5, margin=0.1, window=30)


def test_hyphenated_and_dotted_words_count_whole_and_by_parts_in_normal_form():
    assert {"ward-7b", "ward", "7b", "bed"} <= slot_terms("ward-7b particulars\nbeds: 22")
    assert {"dr", "aaltonen"} <= slot_terms("held by dr. aaltonen.")
    assert question_terms(["bed count", "ward-7b"]) == {"bed", "count", "ward-7b", "ward", "7b"}


@pytest.mark.parametrize(
    ("question", "state"),
    [
        ("what is the bed count on ward-7b these days?", True),
        ("remind me of the visiting hours for ward-7b.", True),
        ("Who runs the Route Planning team now?", True),
        ("which record first gave 22 as the bed count for ward-7b?", False),
        ("since when has ward-12 had level 5 as its location?", False),
        ("When did Mateo Silva take over the Payments team?", False),
        ("What did the new policy replace?", False),
    ],
)
def test_a_question_is_about_a_state_unless_it_asks_about_an_event(question, state):
    assert asks_about_state(question) is state


def test_the_subject_the_question_names_outranks_another_subjects_same_attribute():
    # ward-4c's record shares more words with the question ("bed count") but not its rare subject
    other = fused("other", 1.0, 5, "the bed count on ward-4c is 14")
    card = fused("card", 0.9, 3, "ward-7b particulars\nbeds: 22")
    weights = {"ward-7b": 2.2, "7b": 2.2, "ward": 0.1, "bed": 1.4, "count": 2.0}
    out = choose_by_slot([other, card], {}, weights, SETTINGS, state=False)
    assert [f.row.id for f in out] == ["card", "other"]
    assert out[0].row.extra["value"]["slot_coverage"] == pytest.approx((2.2 + 2.2 + 0.1 + 1.4) / 7.9)


def test_for_a_state_the_newest_version_of_the_slot_goes_first_whatever_its_wording():
    old = fused("old", 1.0, 2, "agreed at the bed meeting: ward-7b goes to 16 for beds.")
    new = fused("new", 0.95, 20, "ward-7b / beds\nwas: 16\nread: 26")
    far = fused("far", 0.4, 25, "ward-7b had a norovirus scare")
    weights = {"ward-7b": 2.0, "bed": 1.0}
    state = choose_by_slot([old, new, far], {}, weights, SETTINGS, state=True)
    assert [f.row.id for f in state] == ["new", "old", "far"]
    assert state[0].rrf == pytest.approx(state[1].rrf)
    assert "slot_newest" in state[0].row.extra["value"]
    # an event question keeps the coverage order: the older record may be the answer
    again = ((old, 1.0), (new, 0.95), (far, 0.4))
    old, new, far = (fused(f.row.id, s, f.row.event_at.day, f.row.text) for f, s in again)
    event = choose_by_slot([old, new, far], {}, weights, SETTINGS, state=False)
    assert [f.row.id for f in event] == ["old", "new", "far"]


def test_the_text_a_fact_was_read_from_counts_toward_its_coverage():
    fact = fused("fact", 0.9, 3, "beds: 22")
    other = fused("other", 1.0, 4, "ward-12: 28 (beds)")
    out = choose_by_slot(
        [other, fact], {"fact": "beds: 22\nward-7b particulars"}, {"ward-7b": 2.0, "bed": 1.0}, SETTINGS, False
    )
    assert out[0].row.id == "fact"


def test_nothing_changes_without_weights_or_with_the_stage_off():
    a, b = fused("a", 1.0, 2, "x"), fused("b", 0.5, 9, "x")
    assert choose_by_slot([a, b], {}, {}, SETTINGS, True) == [a, b]
    assert choose_by_slot([a, b], {}, {"x": 1.0}, SlotSettings(0.0, 0.1, 30), True) == [a, b]
