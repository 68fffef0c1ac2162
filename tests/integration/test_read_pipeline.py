"""Recall's refine stages switched off one at a time (`<recipe>-no:<stage>`), in a real Neo4j: switching a
stage off undoes what that stage did, reports nothing for it, and leaves the rest of the pipeline working."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.memory_graph import MemoryGraph
from graphmem.read.pipeline import STAGE_NAMES
from graphmem.read.pipeline.config import PLAN_SWITCHES
from graphmem.read.pipeline.stages import SIGNAL_PREFIX
from tests.support.graph_builder import GraphBuilder, at

pytestmark = pytest.mark.integration

ANNOUNCEMENTS = [
    ("2022-03-13", "Kenji", "Head of the Payments team: Mateo Silva heads the Payments team from today."),
    ("2023-04-07", "Tomas", "Payments team: Noah Brooks becomes head of the Payments team."),
    ("2024-05-12", "Priya", "Payments team: Samuel Otieno becomes head of the Payments team."),
]
QUESTION = "Who heads the Payments team now?"


@pytest.fixture
def graph(store, minilm) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings())


@pytest.fixture
def announced(graph, space) -> MemoryGraph:
    docs = [
        {"id": f"{space}-{n}", "text": text, "author": author, "event_at": day}
        for n, (day, author, text) in enumerate(ANNOUNCEMENTS)
    ]
    graph.ingest_documents(space, docs, strict=True)
    return graph


def stage_signals(result, stage: str) -> list[str]:
    return [h.id for h in result.hits if SIGNAL_PREFIX + stage in h.signals]


def test_version_choice_switched_off_no_longer_lifts_the_newest_announcement(announced, space):
    chosen = announced.recall(QUESTION, space, k=5, related=False)
    assert "Samuel Otieno" in chosen.hits[0].text
    assert stage_signals(chosen, "versions")  # the move is reported on the hits it moved
    moved = chosen.hits[0].signals[SIGNAL_PREFIX + "versions"]
    assert moved.rank > 1  # where it stood before version choice

    plain = announced.recall(QUESTION, space, k=5, related=False, recipe="hybrid-no:versions")
    assert plain.variant == "hybrid-no:versions"
    assert stage_signals(plain, "versions") == []
    assert all("newer_version" not in h.value for h in plain.hits)
    assert [h.id for h in plain.hits] != [h.id for h in chosen.hits]


def _release_notes(build: GraphBuilder) -> tuple[str, str]:
    """Nine dated release notes and a newest two-word fact: the latest stage reserves a slot for it."""
    for i in range(9):
        build.semantic(f"Release notes for the Lyon app version 1.{i}: deployment checklist and fixes",
                       valid_from=at(f"2021-0{i + 1}-01"))  # fmt: skip
    return build.semantic("Lyon app", valid_from=at("2024-06-01")), "Lyon app release notes deployment checklist fixes"


def test_latest_slots_switched_off_keep_the_plain_top_k(graph, store, minilm, space):
    newest, question = _release_notes(GraphBuilder(store, minilm, space))
    reserved = graph.recall(question, space, mode="semantic", k=6)
    assert newest in stage_signals(reserved, "latest")
    plain = graph.recall(question, space, mode="semantic", k=6, recipe="hybrid-no:latest")
    assert newest not in [h.id for h in plain.hits]
    assert not any(h.latest_slot for h in plain.hits) and stage_signals(plain, "latest") == []


@pytest.mark.parametrize("name", [*STAGE_NAMES, *PLAN_SWITCHES, "tagdocs", "lexical"])
def test_every_stage_can_be_switched_off(announced, space, name):
    result = announced.recall(QUESTION, space, k=5, recipe=f"hybrid-no:{name}")
    assert result.variant == f"hybrid-no:{name}"
    assert result.hits
    assert stage_signals(result, name) == []
    assert (result.evidence == "") == (name == "packing")


def test_switching_off_stages_that_did_not_act_changes_nothing(announced, space):
    full = announced.recall(QUESTION, space, k=5)
    for name in ("contradictions", "slots", "multihop", "episodes"):
        ablated = announced.recall(QUESTION, space, k=5, recipe=f"hybrid-no:{name}")
        assert [h.id for h in ablated.hits] == [h.id for h in full.hits], name
        # scores move only with the clock (recency is measured to now)
        assert [h.score for h in ablated.hits] == pytest.approx([h.score for h in full.hits], abs=1e-6), name


def test_a_read_setting_changed_on_a_running_graph_applies_to_the_next_recall(graph, store, minilm, space):
    # the recall's config is built once per value of the read settings, never kept past a change
    newest, question = _release_notes(GraphBuilder(store, minilm, space))
    assert newest in stage_signals(graph.recall(question, space, mode="semantic", k=6), "latest")
    graph.settings.read_latest_slots = 0  # changed in place
    assert stage_signals(graph.recall(question, space, mode="semantic", k=6), "latest") == []
    graph.settings = graph.settings.model_copy(update={"read_latest_slots": 2})  # a new settings object
    assert newest in stage_signals(graph.recall(question, space, mode="semantic", k=6), "latest")
