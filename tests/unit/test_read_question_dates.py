"""Dates a question states: an as-of phrase bounds the recall, other dates only lift what is near them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem.read.question_dates import question_dates


def end_of(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC) + timedelta(days=1) - timedelta(microseconds=1)


@pytest.mark.parametrize(
    ("question", "as_of"),
    [
        ("Reconstruct the facts on record as of 2023-02-19 about the hiring.", end_of(2023, 2, 19)),
        ("From the perspective of the audit on 2023-04-02, what did we hold?", end_of(2023, 4, 2)),
        ("From the standpoint of 2023-02-24, outline Emily's role.", end_of(2023, 2, 24)),
        ("What was launched, as of March 31, 2023?", end_of(2023, 3, 31)),
        ("Who led Payments as at 5 Jan 2024?", end_of(2024, 1, 5)),
        ("What was our travel policy as of June 2023?", end_of(2023, 6, 30)),
    ],
)
def test_an_as_of_phrase_is_the_questions_bound(question, as_of):
    dates = question_dates(question)
    assert dates.as_of == as_of
    assert dates.mentions == ()


@pytest.mark.parametrize(
    "question",
    [
        "What claim did Marco make on 2023-07-30?",
        "Why did we change course after the May 2023 product decision?",
        "What would the system have answered if asked on 2023-12-15?",
    ],
)
def test_other_dates_are_mentions_not_bounds(question):
    dates = question_dates(question)
    assert dates.as_of is None
    assert len(dates.mentions) == 1


@pytest.mark.parametrize(
    "question",
    ["As of today, who runs support?", "What holds as of now?", "Budget for February 30, 2023?", "Who is on call?"],
)
def test_no_date_no_bound(question):
    dates = question_dates(question)
    assert dates.as_of is None and dates.mentions == ()


def test_closeness_is_one_within_the_named_day_or_month_and_fades_over_a_week():
    day = question_dates("the outage on 2023-10-12").mentions[0]
    assert day.closeness(datetime(2023, 10, 12, 18, tzinfo=UTC)) == 1.0
    assert day.closeness(datetime(2023, 10, 16, 0, tzinfo=UTC)) == pytest.approx(1 - 3 / 7, abs=1e-6)
    assert day.closeness(datetime(2023, 11, 1, tzinfo=UTC)) == 0.0
    month = question_dates("the May 2023 decision").mentions[0]
    assert month.closeness(datetime(2023, 5, 31, 12, tzinfo=UTC)) == 1.0
    assert month.closeness(datetime(2023, 4, 20, tzinfo=UTC)) == 0.0


def test_an_as_of_cue_far_from_the_date_does_not_bind_it():
    question = "As of the latest review, which of the open items the auditors raised is still open since 2023-03-01?"
    assert question_dates(question).as_of is None


def test_a_named_date_holding_the_recalls_as_of_is_the_bound_not_an_event_date():
    dates = question_dates("Who led Payments on March 27, 2022, and what happened on 2022-05-02?")
    bounded = dates.bounded_by(datetime(2022, 3, 27, 14, 50, tzinfo=UTC))
    assert len(dates.mentions) == 2 and len(bounded.mentions) == 1
    assert bounded.mentions[0].start == datetime(2022, 5, 2, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "caller_as_of", "searched"),
    [
        # the question's own as-of phrase bounds the recall: it is no search words
        (
            "Reconstruct the travel policy facts on record as of 2023-02-19.",
            None,
            "Reconstruct the travel policy facts on record .",
        ),
        # the caller's bound named in the question: notes headed "March 27, 2022" are no better for it
        (
            "Who was leading Payments on March 27, 2022?",
            datetime(2022, 3, 27, 15, tzinfo=UTC),
            "Who was leading Payments on ?",
        ),
        # a date that is not the bound stays: it says when something happened
        (
            "What did Marco claim on 2023-07-30?",
            datetime(2024, 1, 1, tzinfo=UTC),
            "What did Marco claim on 2023-07-30?",
        ),
    ],
)
def test_the_words_naming_the_bound_are_not_searched_for(question, caller_as_of, searched):
    dates = question_dates(question)
    stated = caller_as_of is None
    assert dates.without_bound(question, caller_as_of or dates.as_of, stated) == searched
