"""Numbers the question names (`graphmem/read/pipeline/stages/numbers.py`): which words count, and how much a
candidate holding them gains."""

from __future__ import annotations

import pytest

from graphmem.read.pipeline.stages.numbers import question_numbers, shares
from graphmem.text import numbered_words


def test_numbered_words_are_letter_and_digit_runs_holding_a_digit() -> None:
    assert numbered_words("Ward-7B // visiting 14:00-20:00, q3 budget") == {"7b", "14", "00", "20", "q3"}
    assert numbered_words("no numbers here") == frozenset()


def test_the_dates_a_question_names_are_not_its_numbers() -> None:
    assert question_numbers("what was the bed count for ward-7b on 22 october 2024?") == {"7b"}
    assert question_numbers("What database did the Orders service run on as of November 7, 2022?") == frozenset()
    assert question_numbers("which record first gave 22 as the bed count for ward-7b?") == {"22", "7b"}


def test_a_word_weighs_by_how_few_candidates_hold_it() -> None:
    held = {"gold": frozenset({"7b", "22"}), "older": frozenset({"7b"}), "other": frozenset(), "more": frozenset()}
    share = shares(frozenset({"7b", "22"}), held)
    assert share["gold"] > share["older"] > share["other"] == 0.0
    assert share["gold"] == pytest.approx(((1 - 0.5) + 1) / 2)  # "7b": ln(4/2)/ln(4); "22": held by one
    # a word every candidate holds tells none apart; a word none holds is not counted
    assert shares(frozenset({"2", "99"}), {"a": frozenset({"2"}), "b": frozenset({"2"})}) == {"a": 0.0, "b": 0.0}
    assert shares(frozenset({"99"}), {"a": frozenset(), "b": frozenset()}) == {}
