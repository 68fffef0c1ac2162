"""The rule structurer, segmentation, the Memory builder and the chat adapter — no server needed."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.errors import InvalidInput
from graphmem.write.chat import chat_session
from graphmem.write.dedup import _greedy_clusters
from graphmem.write.episodes import said_by, segment_starts, spoken_words, step_text
from graphmem.write.memory import Memory, parse_episode
from graphmem.write.structurers import RuleStructurer, StepInput, facts_from_text
from graphmem.write.structurers.rules import subgoal_of


def test_subgoal_is_the_action_verb_phrase() -> None:
    assert subgoal_of("search 'quiet restaurants in Paris'") == "search quiet restaurants paris"
    assert subgoal_of("click 'Book 20:00'") == "click book"
    assert subgoal_of("   ") is None


def test_rule_structurer_draws_facts_from_observation_and_action_with_rolling_state() -> None:
    steps = [
        StepInput("search 'vegan bakery in Lyon'", "Results: Green Oven (4.8 stars) is open until 19:00."),
        StepInput("open 'Green Oven'", "Green Oven sells vegan croissants. Delivery costs 5 euros."),
    ]
    structures, usage = RuleStructurer().structure_steps("buy croissants", steps)

    assert usage.calls == 0
    assert [s.subgoal for s in structures] == ["search vegan bakery lyon", "open green oven"]
    texts = [f.text for f in structures[1].facts]
    assert texts == ["Green Oven sells vegan croissants.", "Delivery costs 5 euros.", "open 'Green Oven'"]
    assert "Green Oven" in structures[1].facts[0].tags and "5 euros" in structures[1].facts[1].tags
    assert structures[1].state.startswith("after search 'vegan bakery in Lyon'; open 'Green Oven'")
    assert structures == RuleStructurer().structure_steps("buy croissants", steps)[0]  # deterministic
    insight, _ = RuleStructurer().insight("buy croissants", "open green oven", steps)
    assert insight is not None and insight.goal == "open green oven"
    assert insight.text.startswith("To open green oven: search 'vegan bakery in Lyon' -> open 'Green Oven'")


def test_chat_facts_carry_the_speaker() -> None:
    facts = facts_from_text("I adopted two cats in Berlin. Ok.", prefix="Melanie: ")
    assert [f.text for f in facts] == ["Melanie: I adopted two cats in Berlin."]
    assert facts[0].tags[0] == "Melanie" and "Berlin" in facts[0].tags


def test_document_headings_are_no_facts_but_lend_their_tags_to_the_facts_under_them() -> None:
    email = (
        "Subject: Route Planning team leadership\n\nHi all,\n\n"
        "Ines Costa will lead the team effective March 28, 2022, replacing Priya Raman.\n\nThanks,\nAisha Khan"
    )
    facts = facts_from_text(email, titles=True)
    assert [f.text for f in facts] == ["Ines Costa will lead the team effective March 28, 2022, replacing Priya Raman."]
    assert "Route Planning" in facts[0].tags and "Ines Costa" in facts[0].tags
    record = "ADR: primary datastore for the Orders service\nDecision: the Orders service keeps data in Cassandra."
    assert [f.text for f in facts_from_text(record, titles=True)] == [
        "Decision: the Orders service keeps data in Cassandra."
    ]
    markdown = "# Rollout review\n\n## Decisions\nThe rollout moves to Sprint 13 after the outage review."
    (decision,) = facts_from_text(markdown, titles=True)
    assert decision.text.startswith("The rollout moves")
    assert "Rollout" in decision.tags and "Decisions" in decision.tags  # the title's and the section's
    # a first line that ends like a sentence is a statement, and chat turns and observations keep every line
    assert len(facts_from_text("The Berlin office closes on Friday.\nLena Fischer confirmed it.", titles=True)) == 2
    assert next(f.text for f in facts_from_text(record)) == "ADR: primary datastore for the Orders service"


def test_dated_labels_title_what_follows_and_questions_in_documents_are_no_facts() -> None:
    minutes = (
        "Vendor committee minutes (February 28, 2024). Members: Zara Ahmed, Noah Brooks.\n"
        "Resolved: Lumen Works is the payroll provider, replacing Beacon Payroll."
    )
    (resolved,) = facts_from_text(minutes, titles=True)
    assert resolved.text.startswith("Resolved: Lumen Works")
    assert "Vendor" in resolved.tags  # the label's subject still ties the decision to a vendor question
    log = "Subject: Payments on-call log\n\nStandup notes (March 3, 2024). Ravi Menon fixed the refund job."
    (fixed,) = facts_from_text(log, titles=True)
    assert {"Payments", "Standup"} <= set(fixed.tags)  # a label under a subject line keeps the subject's tags
    asked = "Zara Ahmed: does anyone know who owns the hotel expense limit wording in the handbook?"
    assert facts_from_text(asked, titles=True) == []
    # a bracketed date inside a statement leaves it a statement; a long title before a date is no label
    policy = "Policy update (August 29, 2023): the hotel expense limit per night is now 180 euros."
    assert [f.text for f in facts_from_text(policy, titles=True)] == [policy]
    long_line = "The board approved the new travel policy for every office in Europe (March 3, 2024)."
    assert [f.text for f in facts_from_text(long_line, titles=True)] == [long_line]
    # chat turns and observations keep their questions: a question asked in a conversation is context there
    assert [f.text for f in facts_from_text("Did the Lyon office move to Part-Dieu?")] == [
        "Did the Lyon office move to Part-Dieu?"
    ]


def test_a_document_written_without_capitals_gives_one_fact_per_sentence() -> None:
    text = "ward-7b moved to level 2 last week. the bed count on ward-7b is now 22. anyone seen the rota?"
    facts = facts_from_text(text, titles=True)
    assert [f.text for f in facts] == ["ward-7b moved to level 2 last week.", "the bed count on ward-7b is now 22."]
    assert "ward-7b" in facts[1].tags and "22" in facts[1].tags


def test_segments_split_where_consecutive_subgoals_diverge() -> None:
    a, b = [1.0, 0.0], [0.0, 1.0]
    near_a = [0.8, 0.6]  # cosine 0.8 with a
    assert segment_starts([a, near_a, None, b, b], 0.75) == [0, 3]
    assert segment_starts([None, a, b], 0.75) == [0, 2]
    assert segment_starts([], 0.75) == []


def test_greedy_clusters_join_rows_to_the_first_similar_leader() -> None:
    rows = np.asarray([[1, 0], [0.99, 0.141], [0, 1], [0.1, 0.995]], dtype=np.float32)
    assert _greedy_clusters(rows, 0.9) == [0, 0, 2, 2]
    assert _greedy_clusters(rows, 0.9, block=1) == [0, 0, 2, 2]


def test_greedy_clusters_never_join_rows_of_other_groups() -> None:
    rows = np.asarray([[1, 0], [0.99, 0.141], [1, 0], [0, 1]], dtype=np.float32)
    groups = [("4",), ("7",), ("4",), ("7",)]  # the numbers each key carries
    assert _greedy_clusters(rows, 0.9, groups=groups) == [0, 1, 0, 3]
    assert _greedy_clusters(rows, 0.9, block=1, groups=groups) == [0, 1, 0, 3]


def test_memory_builder_checks_every_value_and_names_the_field() -> None:
    memory = Memory("book a table", "home page", space="s")
    memory.append("search", "results", at="2024-01-01T10:00:00Z", reward=0.5)
    with pytest.raises(InvalidInput) as info:
        memory.append("", "   ")
    assert info.value.field == "steps[1]"
    with pytest.raises(InvalidInput) as info:
        memory.append("x", "y", at="soon")
    assert info.value.field == "steps[1].at"
    with pytest.raises(InvalidInput) as info:
        memory.append("x", "y", reward="high")  # type: ignore[arg-type]
    assert info.value.field == "steps[1].reward"
    memory.close(outcome=1.0)
    assert len(memory) == 2 and memory.outcome == 1.0
    with pytest.raises(InvalidInput, match="closed"):
        memory.append("x", "y")
    with pytest.raises(InvalidInput) as info:
        Memory("", space="s")
    assert info.value.field == "goal"
    assert step_text("go", "") == "Action: go" and step_text("go", "seen") == "Action: go\nObservation: seen"


def test_episode_records_and_chat_sessions_are_validated_by_name() -> None:
    with pytest.raises(InvalidInput) as info:
        parse_episode(4, {"goal": "g", "steps": [{"action": "a", "observation": 5}]}, "s")
    assert info.value.field == "episodes[4].steps[0].observation"
    with pytest.raises(InvalidInput) as info:
        parse_episode(0, {"goal": "g", "space": "other", "steps": [{"action": "a"}]}, "s")
    assert info.value.field == "episodes[0].space"
    with pytest.raises(InvalidInput) as info:
        chat_session("s", [{"speaker": "A", "text": "hi"}, {"speaker": "B", "text": "yo", "time": "later"}])
    assert info.value.field == "turns[1].time"
    chat = chat_session("s", [{"role": "user", "content": "hi"}], session_date="2024-02-02")
    assert chat.kind == "chat" and chat.steps[0].author == "user" and chat.steps[0].at is not None


@pytest.mark.parametrize(
    ("author", "text", "line", "words"),
    [
        ("Caroline", "I ran a charity race.", "Caroline: I ran a charity race.", "I ran a charity race."),
        # a pasted transcript line names its speaker already: once is enough
        ("Caroline", "Caroline: I ran a charity race.", "Caroline: I ran a charity race.", "I ran a charity race."),
        ("caroline", "CAROLINE:  hi", "caroline: hi", "hi"),
        # another name, or the name without a colon, is what was said
        ("Melanie", "Caroline: hi", "Melanie: Caroline: hi", "Caroline: hi"),
        ("Caroline", "Caroline said hi", "Caroline: Caroline said hi", "Caroline said hi"),
        (None, "hello", "hello", "hello"),
    ],
)
def test_a_turn_names_its_speaker_once(author, text, line, words):
    assert said_by(author, text) == line
    assert spoken_words(author, text) == words
