"""Documents where every name a question asks about meets: which words are names, and when covering them
all is rare enough to mean something."""

from __future__ import annotations

import pytest

from graphmem.read.coverage import covering_documents, named_subjects
from graphmem.read.legs.base import LegRanking, UnitRow
from graphmem.text import names_in


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please give Miguel Torres's statement and Diego Alvarez's.", ["Miguel Torres's", "Diego Alvarez's"]),
        # a lone capitalised word opening a sentence may be an ordinary word; a second word or a place
        # inside the sentence tells a name
        ("Walk me through the TransLink Logistics escalation.", ["TransLink Logistics"]),
        ("Miguel Torres said what?", ["Miguel Torres"]),
        ("What did Caroline say to Melanie? Melanie laughed.", ["Caroline", "Melanie"]),
        ("how did the team settle the outage?", []),
    ],
)
def test_names_are_capitalised_runs_but_not_a_lone_word_opening_a_sentence(text, expected):
    assert names_in(text) == expected


def test_only_subjects_the_question_names_count_each_name_once():
    question = "Give Miguel Torres's statement and Diego's, and say whether it was resolved."
    subjects = ["Miguel Torres's", "Miguel", "Diego", "resolved", "statement"]
    assert named_subjects(question, subjects) == [{"Miguel Torres's", "Miguel"}, {"Diego"}]
    # one name matched as two tags is still one name; a name within a longer one is the longer one
    assert named_subjects("Who is Helix's COO now?", ["Helix's", "COO", "now"]) == [{"Helix's", "COO"}]
    assert named_subjects("Is Kansas City in Kansas?", ["Kansas City", "Kansas"]) == [{"Kansas City", "Kansas"}]
    # a month names a date, not who or what
    assert named_subjects("What did the May decision say about B2C?", ["May", "B2C"]) == [{"B2C"}]
    # a name memory has no tag for cannot be covered, and does not count
    assert named_subjects("Did Ana Lima meet Bo Chen?", ["Ana Lima"]) == [{"Ana Lima"}]


def _documents(*subject_lists: list[str]) -> LegRanking:
    rows = [
        UnitRow(
            id=f"doc-{i}", kind="episodic", text="", score=1.0, similarity=None, event_at=None, author=None,
            status="active", valid_from=None, valid_to=None, importance=None, credibility=None, ret=None,
            uses=None, episode_id=None, seq=None, unit_kind="document", extra={"subjects": subjects},
        )
        for i, subjects in enumerate(subject_lists)
    ]  # fmt: skip
    return LegRanking("tagdocs", rows)


def test_the_few_documents_covering_every_name_are_the_covering_ones():
    named = [frozenset({"Miguel Torres", "Miguel"}), frozenset({"Diego"})]
    ranking = _documents(["Diego", "resolved"], ["Miguel", "Diego"], ["Miguel Torres"], ["Diego", "Miguel Torres"])
    assert covering_documents(ranking, named, max_documents=5) == {"doc-1", "doc-3"}


def test_covering_says_nothing_when_one_name_or_many_documents_cover():
    assert covering_documents(_documents(["Diego"], ["Diego"]), [frozenset({"Diego"})], max_documents=5) == set()
    common = _documents(*[["Helix", "Diego"]] * 6)
    named = [frozenset({"Helix"}), frozenset({"Diego"})]
    assert covering_documents(common, named, max_documents=5) == set()
    assert covering_documents(common, named, max_documents=6) == {f"doc-{i}" for i in range(6)}
