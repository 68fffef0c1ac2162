"""Version choice by pairs (graphmem.read.slot_pairs): which candidates state the same slot as the one holding
most of the question's rare words, decided per pair, and the newest of them read first."""

from __future__ import annotations

from graphmem.read.fusion import Fused
from graphmem.read.pipeline.config import SlotPairsSettings
from graphmem.read.slot_pairs import order_slot_versions, question_words, same_slot, slot_group
from graphmem.read.slots import slot_terms
from tests.support.fused import fused

# "what is the bed count on ward-7b these days?", with the rarity weights its words have in set B (seed 7)
WEIGHTS = {"ward-7b": 2.22, "7b": 2.22, "ward": 0.48, "bed": 2.06, "count": 2.91}
TOTAL = sum(WEIGHTS.values())
S = SlotPairsSettings(window=30, overlap=0.7, shared=0.6, tier=0.1)


def held(*items: Fused) -> dict[str, frozenset[str]]:
    return {f.row.id: slot_terms(f.row.text) & WEIGHTS.keys() for f in items}


def order(items: list[Fused]) -> list[str]:
    return [f.row.id for f in order_slot_versions(items, held(*items), WEIGHTS, S)]


def test_question_words_keep_the_forms_the_question_wrote_for_counting_their_rarity():
    words = question_words(["Payments", "ward-7b", "beds"])
    assert words["payment"] == {"payment", "payments"}
    assert words["bed"] == {"bed", "beds"}
    assert {"ward-7b", "ward", "7b"} <= words.keys()


def test_a_card_and_a_sentence_of_one_slot_pair_another_subject_or_attribute_does_not():
    card = slot_terms("ward-7b particulars\nbeds: 14") & WEIGHTS.keys()
    sentence = slot_terms("the bed count on ward-7b is 22") & WEIGHTS.keys()
    other_subject = slot_terms("the bed count on ward-4c is 16") & WEIGHTS.keys()
    other_attribute = slot_terms("ward-7b particulars\nconsultant on call: dr. aaltonen") & WEIGHTS.keys()
    assert same_slot(sentence, card, WEIGHTS, TOTAL, S)
    assert not same_slot(sentence, other_subject, WEIGHTS, TOTAL, S)
    assert not same_slot(sentence, other_attribute, WEIGHTS, TOTAL, S)


def test_the_newest_version_of_the_slot_is_read_first_above_better_scored_other_subjects():
    items = [
        fused("ward-4c", 1.0, 20, "the bed count on ward-4c is 16, as confirmed by k.oyelowo."),
        fused("old", 0.95, 3, "agreed at the bed meeting: ward-7b goes to 14 for beds."),
        fused("other-attribute", 0.9, 25, "ward-7b rota card\nconsultant on call: dr. aaltonen"),
        fused("new", 0.8, 12, "ward-7b particulars\nbeds: 22\nupdated by duty-desk"),
        fused("undated", 0.7, None, "the bed count on ward-7b"),
    ]
    ranked = order(items)
    assert ranked[:2] == ["new", "old"]
    assert ranked[2:] == ["ward-4c", "other-attribute", "undated"]  # the rest keep their order
    lifted = next(f for f in items if f.row.id == "new")
    assert lifted.rrf == 1.0 and lifted.row.extra["value"]["slot_version"] > 0


def test_a_member_holding_much_less_of_the_question_reads_after_the_full_ones_whatever_its_date():
    items = [
        fused("full-old", 1.0, 3, "the bed count on ward-7b is 14"),
        fused("full-new", 0.9, 10, "the bed count on ward-7b is 18"),
        fused("partial-newest", 0.8, 20, "ward-7b beds 22"),  # lacks "count": a second tier
    ]
    assert order(items) == ["full-new", "full-old", "partial-newest"]


def test_questions_no_candidate_mostly_answers_or_with_one_version_are_left_as_ranked():
    # several documents each holding a part of what the question names (a multi-document question)
    parts = [
        fused("a", 1.0, 3, "ward-7b handover"),
        fused("b", 0.9, 10, "bed count audit"),
        fused("c", 0.8, 20, "ward-7b 7b"),
    ]
    assert order(parts) == ["a", "b", "c"]
    assert slot_group(parts, held(*parts), WEIGHTS, S) == ([], {})
    # one dated version only: nothing to choose between
    single = [fused("x", 1.0, 3, "the bed count on ward-4c"), fused("y", 0.9, 10, "the bed count on ward-7b")]
    assert order(single) == ["x", "y"]


def test_versions_on_one_date_are_not_reordered():
    same_day = [fused("a", 1.0, 5, "the bed count on ward-7b is 14"), fused("b", 0.9, 5, "ward-7b beds: 14, count")]
    assert order(same_day) == ["a", "b"]


def test_a_pair_needs_near_texts_when_a_cosine_is_set():
    import numpy as np

    items = [fused("old", 1.0, 3, "the bed count on ward-7b is 14"), fused("new", 0.9, 10, "bed count ward-7b 22")]
    far = {"old": [np.array([1.0, 0.0])], "new": [np.array([0.0, 1.0])]}
    strict = SlotPairsSettings(window=30, overlap=0.7, shared=0.6, tier=0.1, cosine=0.5)
    assert [f.row.id for f in order_slot_versions(items, held(*items), WEIGHTS, strict, far)] == ["old", "new"]
    assert [f.row.id for f in order_slot_versions(items, held(*items), WEIGHTS, S, far)] == ["new", "old"]


def test_the_stage_is_on_by_default_switchable_by_its_settings_and_off_in_the_baselines():
    from graphmem.config import Settings
    from graphmem.read.pipeline import recipe

    assert recipe("hybrid", Settings()).enabled("slot_pairs")
    on = Settings(GRAPHMEM_READ_SLOT_PAIRS_WINDOW=30)
    assert recipe("hybrid", on).enabled("slot_pairs")
    assert not recipe("hybrid-no:slot_pairs", on).enabled("slot_pairs")
    assert not recipe("hybrid", Settings(GRAPHMEM_READ_SLOT_PAIRS_WINDOW=0)).enabled("slot_pairs")
    parts = recipe(
        "hybrid",
        Settings(
            GRAPHMEM_READ_SLOT_PAIRS_WINDOW=30,
            GRAPHMEM_READ_SLOT_PAIRS_EVENT_GATE=False,
            GRAPHMEM_READ_SLOT_PAIRS_DEFER=False,
            GRAPHMEM_READ_SLOT_PAIRS_DEFER_BOUNDED=True,
        ),
    )
    assert not parts.stages.slot_pairs.event_gate and not parts.stages.slot_pairs.defer
    assert parts.stages.slot_pairs.defer_bounded and not recipe("hybrid", on).stages.slot_pairs.defer_bounded
    for name in ("vector", "bm25", "tagvote", "plugmem"):
        assert not recipe(name, on).enabled("slot_pairs"), name


def test_with_keep_order_the_group_is_lifted_in_the_order_an_earlier_stage_gave_it():
    items = [
        fused("ward-4c", 1.0, 20, "the bed count on ward-4c is 16"),
        fused("chosen-old", 0.95, 3, "the bed count on ward-7b is 14"),
        fused("newer", 0.8, 12, "the bed count on ward-7b is 22"),
    ]
    ranked = order_slot_versions(items, held(*items), WEIGHTS, S, keep_order=True)
    assert [f.row.id for f in ranked] == ["chosen-old", "newer", "ward-4c"]


def test_a_version_linked_by_wording_joins_the_group_and_keeps_the_place_that_stage_gave_it():
    # the wording stage read "new-chat" as the newer version of "email" (it names what it replaces) and put it
    # first; it holds too little of the question to pair by words, and a later demo note pairs with the email
    items = [
        fused("new-chat", 1.0, 12, "ward-7b: 22 now, replacing 14"),
        fused("email", 0.95, 3, "the bed count on ward-7b is 14"),
        fused("demo", 0.9, 20, "the bed count on ward-7b was discussed at the demo"),
    ]
    unlinked = order_slot_versions(items, held(*items), WEIGHTS, S, keep_order=True)
    assert [f.row.id for f in unlinked] == ["email", "demo", "new-chat"]  # the group of two goes above the chat
    linked = order_slot_versions(items, held(*items), WEIGHTS, S, keep_order=True, links={"new-chat": {"email"}})
    assert [f.row.id for f in linked] == ["new-chat", "email", "demo"]


def test_links_join_through_other_versions_only_candidates_of_the_window():
    from graphmem.read.slot_pairs import linked_versions

    a, b, c, d = (fused(x, 1.0, n, x) for n, x in enumerate("abcd", start=1))
    links = {"b": {"a"}, "c": {"b"}, "z": {"d"}}
    assert [f.row.id for f in linked_versions([a, b, c, d], [a], links)] == ["b", "c"]
    assert linked_versions([a, b, c, d], [d], links) == []


def test_the_candidate_an_earlier_stage_chose_first_stays_first_with_the_group_below_it():
    items = [
        fused("chosen", 1.0, 30, "staff meeting: ward-7b staffing agreed"),  # moved up by the wording stage
        fused("old", 0.95, 3, "the bed count on ward-7b is 14"),
        fused("ward-4c", 0.9, 20, "the bed count on ward-4c is 16"),
        fused("newer", 0.8, 12, "the bed count on ward-7b is 18"),
    ]
    ranked = order_slot_versions(items, held(*items), WEIGHTS, S, keep_order=True, pinned="chosen")
    assert [f.row.id for f in ranked] == ["chosen", "old", "newer", "ward-4c"]
    # pinned only holds the first place it has: a pin on another candidate changes nothing
    again = order_slot_versions(items, held(*items), WEIGHTS, S, keep_order=True, pinned="ward-4c")
    assert [f.row.id for f in again] == ["old", "newer", "chosen", "ward-4c"]


def test_under_an_as_of_bound_the_group_reads_newest_first_unless_told_to_defer_there_too():
    from graphmem.read.pipeline.stages.slot_pairs import keeps_wording_order

    assert keeps_wording_order(S, current=True, moved=True)  # a current question: the wording stage's order
    assert not keeps_wording_order(S, current=False, moved=True)  # bounded: the latest version before the bound
    assert not keeps_wording_order(S, current=True, moved=False)
    assert keeps_wording_order(S.model_copy(update={"defer_bounded": True}), current=False, moved=True)


def test_a_question_in_a_candidate_holds_none_of_the_words_it_asks_about():
    from graphmem.read.pipeline.stages.slot_pairs import stated_text

    asked = "anyone know the bed count on ward-7b this week? asking for the safer staffing return."
    assert slot_terms(stated_text(asked)) & WEIGHTS.keys() == frozenset()
    card = "ward-7b particulars\nbeds: 22\nupdated 2024-11-19 by d.esquivel-park"
    assert slot_terms(stated_text(card)) & WEIGHTS.keys() == {"ward-7b", "7b", "ward", "bed"}
