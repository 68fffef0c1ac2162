"""The reasoning step without a database: guidance never costs more than its budget, names the evidence items
its sentences came from, and splits the packed evidence back into the items it was packed from."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput
from graphmem.read.packing import evidence_blocks, pack_evidence
from graphmem.read.reasoning import check_budget, extractive_guidance, fit_tokens, packed_blocks
from graphmem.read.results import EpisodeUnit, ExpandedEpisode, Plan, RecallHit, RecallResult

EMBEDDER = HashingEmbedder(256)
BLOCKS = [
    ("d1", "[2024-06-01 · bo] The Acme office moved to Lyon. It is near the Part-Dieu station.", False),
    ("d2", "[2024-02-01 · ana] Team lunch is every Friday at Chez Marie. Bring a badge.", False),
    ("d3", "[2024-03-05 · cy] Visitors park in the north garage. The gate code changes monthly.", False),
]


def _hit(node_id: str, text: str, episode_id: str | None = None, kind: str = "semantic") -> RecallHit:
    day = datetime(2024, 5, 1, tzinfo=UTC)
    return RecallHit(id=node_id, kind=kind, text=text, score=1.0, signals={}, event_at=day, author="ana",
                     status="active", valid_from=day, valid_to=None, episode_id=episode_id)  # fmt: skip


def _result(hits: list[RecallHit], episodes: list[ExpandedEpisode], max_chars: int | None) -> RecallResult:
    result = RecallResult(
        hits=hits, evidence="", evidence_tokens=0, episodes=episodes,
        plan=Plan(query="q", tags=[], next_subgoal=None, mode="hybrid"), variant="hybrid",
        as_of=datetime.now(UTC), known_at=datetime.now(UTC), legs=(),
    )  # fmt: skip
    pack = pack_evidence(evidence_blocks(result.evidence_order(), episodes), EMBEDDER.count_tokens, max_chars)
    result.evidence, result.evidence_tokens, result.evidence_items = pack.text, pack.tokens, pack.items
    return result


@pytest.mark.parametrize("budget", [1, 3, 8, 16, 17, 30, 45, 1000])
def test_extracted_guidance_never_costs_more_than_the_budget(budget: int) -> None:
    text, ids = extractive_guidance("Where is the Acme office?", BLOCKS, EMBEDDER, budget)
    assert EMBEDDER.count_tokens(text) <= budget
    assert set(ids) <= {"d1", "d2", "d3"}
    if budget >= 8:
        assert text and ids  # the best sentence is cut to fit rather than nothing returned


def test_extracted_guidance_keeps_the_best_sentences_in_evidence_order_with_their_items() -> None:
    text, ids = extractive_guidance("Where is the Acme office? Which station?", BLOCKS, EMBEDDER, 30)
    assert text.splitlines()[0].startswith("[2024-06-01 · bo] The Acme office moved to Lyon.")
    assert ids[0] == "d1" and "Friday" not in text
    everything, all_ids = extractive_guidance("office", BLOCKS, EMBEDDER, 1000)
    assert all_ids == ["d1", "d2", "d3"] and everything.count("[2024-") == 3  # one prefix per evidence line


def test_fit_tokens_cuts_at_a_word_with_an_ellipsis() -> None:
    assert fit_tokens("short enough", EMBEDDER, 5) == "short enough"
    cut = fit_tokens("one two three four five six seven eight", EMBEDDER, 4)
    assert cut.endswith(" …") and EMBEDDER.count_tokens(cut) <= 4 and cut.startswith("one two")


def test_packed_blocks_split_the_evidence_back_into_its_items_even_when_cut() -> None:
    units = [EpisodeUnit(id=f"u{i}", seq=i, text=f"Step {i} went fine.", event_at=None, author=None) for i in range(4)]
    episode = ExpandedEpisode(episode_id="ep", session_id="s", goal="book a room", hit_count=2, units=units)
    hits = [_hit("f1", "The office is in Lyon."), _hit("u1", units[1].text, "ep", "episodic"),
            _hit("u2", units[2].text, "ep", "episodic"), _hit("f2", "Lunch is on Friday.")]  # fmt: skip
    whole = _result(hits, [episode], None)
    blocks = packed_blocks(whole)
    assert [b for b, _, _ in blocks] == ["f1", "ep", "f2"]  # the episode replaces its hits, shown once
    assert blocks[1][1].count("\n") == 4 and "Step 3" in blocks[1][1]
    cut = _result(hits, [episode], len(blocks[0][1]) + 60)  # the episode block is cut mid-way, f2 left out
    split = packed_blocks(cut)
    assert [b for b, _, _ in split] == ["f1", "ep"] and "\n".join(t for _, t, _ in split) == cut.evidence


def test_an_earlier_version_is_used_only_after_every_current_sentence() -> None:
    blocks = [
        ("new", "[2024-06-01 · bo] The Acme office moved to Lyon, near the Part-Dieu station.", False),
        ("old", "[2024-01-10 · ana] (earlier version) The Acme office is located in Paris.", True),
    ]
    text, ids = extractive_guidance("Where is the Acme office located?", blocks, EMBEDDER, 20)
    assert "Lyon" in text and "Paris" not in text and ids == ["new"]
    both, both_ids = extractive_guidance("Where is the Acme office located?", blocks, EMBEDDER, 100)
    assert both_ids == ["new", "old"] and both.index("Lyon") < both.index("Paris")


@pytest.mark.parametrize("bad", [0, -5, 15, 4001, 10**9, True, 2.5])
def test_budgets_out_of_range_are_refused_by_name(bad: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_budget(bad, 300)  # type: ignore[arg-type]
    assert caught.value.field == "token_budget"
    assert check_budget(None, 300) == 300 and check_budget(16, 300) == 16
