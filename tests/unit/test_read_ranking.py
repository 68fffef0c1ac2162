"""Read-path logic that needs no server: Lucene escaping, fusion, value model, slots, packing, planning."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput
from graphmem.read.asof import AsOf
from graphmem.read.fusion import Fused, tied_ranks, weighted_rrf
from graphmem.read.legs.base import LegRanking, UnitRow, native_time
from graphmem.read.legs.lexical import in_space_query, lucene_query
from graphmem.read.packing import evidence_blocks, pack_evidence
from graphmem.read.pipeline import recipe
from graphmem.read.pipeline.legs import config_legs
from graphmem.read.planner import parse_mode, query_tags
from graphmem.read.reasoning import extractive_guidance
from graphmem.read.recall import reserve_latest
from graphmem.read.results import Plan, RecallHit, RecallResult, RelatedArtefact
from graphmem.read.sources import fuse_sources, min_max, relative_fusion
from graphmem.read.value_model import COMPONENTS, ValueWeights, components, value_score
from graphmem.read.versions import (
    UnitSubject,
    asks_for_state,
    prefer_newer_versions,
    question_subject_words,
    replaced_values,
    replaces_explicitly,
    states_a_value,
    version_candidates,
)

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def row(id: str, score: float = 1.0, **kw) -> UnitRow:
    base = dict(
        id=id, kind="semantic", text=id, score=score, similarity=kw.pop("similarity", 0.5),
        event_at=kw.pop("event_at", NOW - timedelta(days=10)), author=None, status="active",
        valid_from=None, valid_to=None, importance=1.0, credibility=1.0, ret=None, uses=None,
        episode_id=None, seq=None, unit_kind=None,
    )  # fmt: skip
    base.update(kw)
    return UnitRow(**base)


def test_lucene_query_neutralises_every_operator():
    query = lucene_query('"a AND (b OR c:)~ \\ / ^ * ? [ ] && || !')
    assert query == "a and b or c"
    assert not re.search(r"[()\[\]{}^~*?:\\/\"!&|+-]", query.replace("\\", ""))
    assert lucene_query("C++ -x") == "c x"
    assert lucene_query("?!") == ""


def test_in_space_query_quotes_the_space_and_names_every_text_field():
    query = in_space_query("lyon office", 'team "a" \\ b', ("text", "goal"))
    assert query == '+space:"team \\"a\\" \\\\ b"^0 +(text:(lyon office) goal:(lyon office))'


def test_weighted_rrf_sums_legs_and_respects_weights():
    vector = LegRanking("vector", [row("a", 0.9), row("b", 0.8)])
    lexical = LegRanking("lexical", [row("b", 7.0), row("c", 3.0)])
    fused = weighted_rrf([vector, lexical], {"vector": 1.0, "lexical": 1.0})
    assert [f.row.id for f in fused] == ["b", "a", "c"]
    assert fused[0].rrf == pytest.approx(1 / 62 + 1 / 61)
    assert fused[0].signals["lexical"].rank == 1 and fused[0].signals["vector"].rank == 2
    heavy = weighted_rrf([vector, lexical], {"vector": 1.0, "lexical": 0.0})
    assert heavy[0].row.id == "a"


def test_tied_leg_scores_share_a_rank():
    fused = weighted_rrf([LegRanking("vector", [row("a", 0.5), row("b", 0.5)])], {})
    assert fused[0].rrf == fused[1].rrf
    assert {f.signals["vector"].rank for f in fused} == {1}


@pytest.mark.parametrize("component", COMPONENTS)
def test_every_value_component_moves_the_score(component):
    strong = row("s", similarity=0.9, event_at=NOW, importance=5.0, credibility=1.0, ret=1.0, uses=40)
    weak = row("w", similarity=0.1, event_at=NOW - timedelta(days=900), importance=0.1, credibility=0.2,
               ret=-1.0, uses=0)  # fmt: skip
    only = ValueWeights.from_mapping({name: (1.0 if name == component else 0.0) for name in COMPONENTS})
    s, w = (value_score(components(r, NOW, 180.0), only) for r in (strong, weak))
    assert s > w


def test_value_weights_reject_unknown_or_negative():
    with pytest.raises(InvalidInput):
        ValueWeights.from_mapping({"popularity": 1.0})
    with pytest.raises(InvalidInput):
        ValueWeights.from_mapping({"recency": -1.0})


def test_latest_slots_bring_in_newest_candidates_but_at_most_a_third():
    ranked = [Fused(row=row(f"r{i}", event_at=NOW - timedelta(days=100 - i)), rrf=1.0 - i / 100) for i in range(12)]
    top, latest = reserve_latest(ranked, k=6, slots=3)
    assert [f.row.id for f in top[:4]] == ["r0", "r1", "r2", "r3"]
    assert latest == {"r11", "r10"}  # 6 // 3 = 2 slots
    assert len(top) == 6
    assert reserve_latest(ranked, k=2, slots=3)[1] == set()


def test_pack_evidence_keeps_rank_order_within_budget():
    counter = HashingEmbedder(8).count_tokens
    blocks = [("a", "[2024-01-01 · ann] one two three"), ("b", "[2024-01-02] four five six seven eight nine")]
    full = pack_evidence(blocks, counter, max_chars=None, max_tokens=1000)
    assert full.text.splitlines()[0].startswith("[2024-01-01 · ann]") and full.item_ids == ["a", "b"]
    assert not full.truncated and full.tokens == counter(full.text)
    cut = pack_evidence(blocks, counter, max_chars=None, max_tokens=12)
    assert cut.tokens <= 12 and cut.truncated and cut.item_ids == ["a", "b"]
    assert cut.text.endswith("…")


def test_pack_evidence_stops_at_the_character_budget_and_says_what_fit():
    counter = HashingEmbedder(8).count_tokens
    blocks = [(f"d{i}", f"[2024-01-0{i + 1} · ann] " + "word " * 30) for i in range(5)]
    one = len(blocks[0][1])
    pack = pack_evidence(blocks, counter, max_chars=2 * one + 1 + 40)
    assert pack.item_ids == ["d0", "d1", "d2"] and pack.truncated
    assert pack.chars <= 2 * one + 1 + 40 and pack.items == 3
    assert pack.text.endswith("…") and pack.tokens == counter(pack.text)
    roomy = pack_evidence(blocks, counter, max_chars=40_000)
    assert roomy.items == 5 and not roomy.truncated and roomy.chars == len(roomy.text)
    # whichever budget binds first wins
    tight = pack_evidence(blocks, counter, max_chars=40_000, max_tokens=counter(blocks[0][1]))
    assert tight.item_ids == ["d0"] and not tight.text.endswith("…")


def _hit(id: str, kind: str, text: str) -> RecallHit:
    unit_kind = "document" if kind == "episodic" else None
    return RecallHit(id=id, kind=kind, text=text, score=1.0, signals={}, event_at=NOW, author="ann",
                     status="active", valid_from=NOW, valid_to=None, unit_kind=unit_kind)  # fmt: skip


def _related(id: str, seed: str, relation: str) -> RelatedArtefact:
    return RelatedArtefact(id=id, seed_id=seed, seed_document="doc-of-" + seed, relation=relation, score=0.9,
                           shared_tags=["billing"], text=f"text of {id}", event_at=NOW - timedelta(days=40),
                           author="bo", status="superseded", valid_from=None, valid_to=None)  # fmt: skip


def test_related_artefacts_follow_the_hit_that_brought_them_and_show_once():
    hits = [_hit("f1", "semantic", "fact one"), _hit("d2", "episodic", "doc two"), _hit("f3", "semantic", "fact 3")]
    related = [_related("d2", "f1", "thread"), _related("old", "f1", "supersedes"), _related("d9", "f3", "thread")]
    result = RecallResult(hits=hits, evidence="", evidence_tokens=0, episodes=[], plan=Plan("q", [], None, "auto"),
                          variant="hybrid", as_of=NOW, known_at=NOW, legs=(), related=related)  # fmt: skip
    assert [item.id for item in result.evidence_order()] == ["f1", "d2", "old", "d2", "f3", "d9"]
    blocks = evidence_blocks(result.evidence_order(), [])
    assert [b for b, _ in blocks] == ["f1", "d2", "old", "f3", "d9"]  # d2 came with f1 and is not repeated
    texts = dict(blocks)
    assert texts["d2"].startswith("[") and "(same thread)" in texts["d2"] and "· bo]" in texts["d2"]
    assert "(earlier version)" in texts["old"]


@pytest.mark.parametrize(
    ("question", "as_of", "expected"),
    [
        ("Who heads Payments now?", None, True),
        ("What is the current datastore of the Orders service?", None, True),
        ("Who headed Payments?", "2023-01-01T00:00:00Z", True),
        ("When did Mateo take over Payments?", None, False),
        ("Who announced the new payroll vendor?", None, False),
        # a question about the change itself needs both versions, so the older one is not demoted
        ("What is the current policy, and what did it replace?", None, False),
        ("Who heads Payments now, and who led it before?", None, False),
        ("What was the previous datastore of the Orders service?", "2023-01-01T00:00:00Z", False),
    ],
)
def test_version_choice_applies_to_questions_about_a_state(question, as_of, expected):
    assert asks_for_state(question, AsOf.resolve(as_of)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-03-04T00:00:00Z", datetime(2024, 3, 4, tzinfo=UTC)),
        ("2026-12-02T22:07:21.505912Z", datetime(2026, 12, 2, 22, 7, 21, 505912, tzinfo=UTC)),
        ("2026-12-02T22:07:21.505912789Z", datetime(2026, 12, 2, 22, 7, 21, 505912, tzinfo=UTC)),
        ("2024-03-04T10:00:00+01:00[Europe/Paris]", datetime(2024, 3, 4, 9, tzinfo=UTC)),
        ("9999-12-31T00:00:00Z", datetime(9999, 12, 31, tzinfo=UTC)),
    ],
)
def test_times_read_as_text_keep_the_instant(text, expected):
    # Neo4j's toString of a DateTime, as the unit queries return times
    assert native_time(text) == expected


def test_a_newer_version_of_the_same_subject_is_ranked_above_the_older_one():
    older = Fused(row("old", event_at=NOW - timedelta(days=400)), rrf=1.05)
    newer = Fused(row("new", event_at=NOW - timedelta(days=10)), rrf=1.0)
    other = Fused(row("other", event_at=NOW - timedelta(days=5)), rrf=0.5)
    ranked = [older, newer, other]
    assert version_candidates(ranked, 30) == ["old", "new", "other"]
    same, orthogonal = np.array([1.0, 0.0], dtype=np.float32), np.array([0.0, 1.0], dtype=np.float32)
    subjects = {
        "old": UnitSubject(same, frozenset({"payments"}), ["Payments"]),
        "new": UnitSubject(same, frozenset({"payments"}), ["Payments"]),
        "other": UnitSubject(orthogonal, frozenset({"payments"}), ["Payments"]),
    }
    chosen = prefer_newer_versions(ranked, subjects, 30, min_cosine=0.65, margin=0.1)
    assert [f.row.id for f in chosen] == ["new", "old", "other"]
    assert chosen[0].row.extra["value"]["newer_version"] == pytest.approx(0.05)
    unrelated = {**subjects, "new": UnitSubject(same, frozenset({"hiring"}), ["Hiring"])}
    older.rrf, newer.rrf = 1.05, 1.0
    assert [f.row.id for f in prefer_newer_versions(ranked, unrelated, 30, 0.65, 0.1)] == ["old", "new", "other"]


def test_facts_read_from_restated_documents_are_versions_though_their_sentences_differ():
    older = Fused(row("meeting-fact", event_at=NOW - timedelta(days=200)), rrf=1.0)
    newer = Fused(row("email-fact", event_at=NOW - timedelta(days=100)), rrf=0.96)
    sentence_a, sentence_b = np.array([1.0, 0.0, 0.0], dtype=np.float32), np.array([0.0, 1.0, 0.0], dtype=np.float32)
    document = np.array([0.0, 0.0, 1.0], dtype=np.float32)
    tags = frozenset({"warehouse operation"})
    restated = {
        "meeting-fact": UnitSubject(sentence_a, tags, None, source_embedding=document),
        "email-fact": UnitSubject(sentence_b, tags, None, source_embedding=document * 2),
    }
    chosen = prefer_newer_versions([older, newer], restated, 30, min_cosine=0.65, margin=0.1)
    assert [f.row.id for f in chosen] == ["email-fact", "meeting-fact"]
    older.rrf, newer.rrf = 1.0, 0.96
    unrelated_sources = {
        "meeting-fact": UnitSubject(sentence_a, tags, None, source_embedding=sentence_a),
        "email-fact": UnitSubject(sentence_b, tags, None, source_embedding=sentence_b),
    }
    chosen = prefer_newer_versions([older, newer], unrelated_sources, 30, min_cosine=0.65, margin=0.1)
    assert [f.row.id for f in chosen] == ["meeting-fact", "email-fact"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Lucas Moreau takes over the Security team, replacing Hana Sato. Please send escalations.", ["hana sato"]),
        ("the refresh cycle is 15 minutes as of today, replacing four years.", ["four years"]),
        ("We move invoices to DynamoDB instead of PostgreSQL for the ledger", ["postgresql"]),
        ("Ines takes over from Priya Raman as lead on Monday", ["priya raman"]),
        ("Nothing here was replaced.", []),
    ],
)
def test_what_a_text_says_it_replaces(text, values):
    assert replaced_values(text) == values


def test_question_subject_words_leave_out_lone_common_words_and_dates():
    words = question_subject_words(["Data Platform", "Data", "Platform", "April", "2022", "leading", "team"])
    assert words == {"data", "platform"}
    assert question_subject_words(["cloud hosting vendor", "cloud", "hosting", "vendor"]) == {
        "cloud",
        "hosting",
        "vendor",
    }


def test_an_explicit_replacement_of_the_same_subject_outranks_the_version_it_replaces():
    email = "Subject: Security team leadership. Hana Sato will lead the Security team from March."
    chat = "quick update: Lucas Moreau runs Security from today, replacing Hana Sato."
    other_team = "Route Planning: Ines Costa runs Route Planning, replacing Hana Sato."
    vec = np.array([1.0, 0.0], dtype=np.float32)
    subjects = {
        "email": UnitSubject(vec, frozenset({"security team"}), None, email),
        "chat": UnitSubject(np.array([0.0, 1.0], dtype=np.float32), frozenset({"lucas moreau"}), None, chat),
        "route": UnitSubject(vec, frozenset({"route planning"}), None, other_team),
    }
    words = question_subject_words(["Security", "current head", "head"])
    assert replaces_explicitly(subjects["chat"], subjects["email"], words)
    assert not replaces_explicitly(subjects["route"], subjects["email"], words)  # another team's change
    assert not replaces_explicitly(subjects["email"], subjects["chat"], words)  # the email replaces nothing
    hosting = question_subject_words(["cloud hosting", "cloud", "hosting"])
    contract = UnitSubject(vec, frozenset(), None, "We signed with Lumen Works for cloud hosting.")
    cloud_deal = UnitSubject(
        vec, frozenset(), None, "Resolved: Parcel Mail is the cloud hosting provider, replacing Lumen Works."
    )
    chat_deal = UnitSubject(
        vec, frozenset(), None, "We signed with Nimbus Hosting for customer chat, replacing Lumen Works."
    )
    assert replaces_explicitly(cloud_deal, contract, hosting)
    assert not replaces_explicitly(chat_deal, contract, hosting)  # one word of two, and from a vendor's name

    def ranked() -> list[Fused]:
        return [
            Fused(row("email", event_at=NOW - timedelta(days=600)), rrf=1.0),
            Fused(row("route", event_at=NOW - timedelta(days=100)), rrf=0.6),
            Fused(row("chat", event_at=NOW - timedelta(days=300)), rrf=0.4),  # far below: no margin applies
        ]

    chosen = prefer_newer_versions(ranked(), subjects, 30, min_cosine=0.65, margin=0.1, subject_words=words)
    assert [f.row.id for f in chosen] == ["chat", "email", "route"]
    # without the question's subject words nothing is taken for an explicit replacement
    plain = prefer_newer_versions(ranked(), subjects, 30, min_cosine=0.65, margin=0.1)
    assert [f.row.id for f in plain] == ["email", "route", "chat"]


def test_statements_naming_the_question_subject_in_other_templates_are_versions():
    texts = {
        "adr": "Decision: the Orders service stores its records in Cassandra.",
        "review": "Outcome: move the Orders service to PostgreSQL.",
        "load-test": "We will load test the Orders service on Thursday night.",
        "invoices": "Outcome: move the Invoice engine to PostgreSQL.",
    }
    angle = np.deg2rad(60)  # cosine 0.5: far apart as texts, as templates from different sources are
    vectors = {
        "adr": np.array([1.0, 0.0], dtype=np.float32),
        "review": np.array([np.cos(angle), np.sin(angle)], dtype=np.float32),
        "load-test": np.array([np.cos(angle), np.sin(angle)], dtype=np.float32),
        "invoices": np.array([np.cos(angle), -np.sin(angle)], dtype=np.float32),
    }
    subjects = {k: UnitSubject(vectors[k], frozenset({k}), None, texts[k]) for k in texts}
    # the question names the Orders service; "primary datastore" is what it asks about it
    words = question_subject_words(["Orders service", "primary datastore", "primary", "datastore"])
    assert words == {"order", "service"}
    days_ago = {"adr": 300, "review": 10, "load-test": 2, "invoices": 5}
    scores = {"adr": 1.0, "load-test": 0.97, "invoices": 0.95, "review": 0.92}

    def order(**kw) -> list[str]:
        ranked = [
            Fused(row(k, text=texts[k], event_at=NOW - timedelta(days=days_ago[k])), rrf=v) for k, v in scores.items()
        ]
        chosen = prefer_newer_versions(ranked, subjects, 30, 0.65, 0.1, subject_words=words, **kw)
        return [f.row.id for f in chosen]

    # The review names the Orders service and moves it to another store, and the question cannot tell it from
    # the ADR: the newer one leads. The load test names the Orders service but states nothing about it, so
    # it is no version of them, and the review, which states a value, goes above it. The Invoice engine's
    # review is about another subject and stays where it ranked.
    assert order(subject_cosine=0.3) == ["review", "adr", "load-test", "invoices"]
    # 0.5 apart, below this floor: no versions, but the statement still goes above the mere mention
    assert order(subject_cosine=0.6) == ["adr", "review", "load-test", "invoices"]
    assert order() == ["adr", "review", "load-test", "invoices"]
    assert [f.row.id for f in prefer_newer_versions(
        [Fused(row(k, text=texts[k], event_at=NOW - timedelta(days=days_ago[k])), rrf=v) for k, v in scores.items()],
        subjects, 30, 0.65, 0.1,
    )] == ["adr", "load-test", "invoices", "review"]  # fmt: skip  # a question naming nothing: as ranked


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("heads up, the Orders service migration is done; MongoDB is now its primary database.", True),
        ("Resolved: Lumen Works is the payroll provider, replacing Beacon Payroll.", True),
        ("agreed that Ibrahim Diallo becomes the Route Planning team lead.", True),
        ("procurement closed the payroll deal, we are going with Beacon Payroll.", True),
        ("The Route Planning offsite is moving to the second week of the month.", False),
        ("the Data Platform team demo went well today, Elif walked us through the new dashboards.", False),
        ("Our payroll provider had a two-hour outage overnight; no data lost.", False),
    ],
)
def test_what_states_a_value_or_its_change(text, states):
    assert states_a_value(text) is states


def test_a_chain_of_versions_lifted_to_one_score_reads_newest_first():
    same = np.array([1.0, 0.0], dtype=np.float32)
    subjects = {name: UnitSubject(same, frozenset({"payments"}), None) for name in ("v1", "v2", "v3")}
    ranked = [
        Fused(row("v1", event_at=NOW - timedelta(days=700)), rrf=1.0),
        Fused(row("v3", event_at=NOW - timedelta(days=10)), rrf=0.95),
        Fused(row("v2", event_at=NOW - timedelta(days=300)), rrf=0.97),
    ]
    chosen = prefer_newer_versions(ranked, subjects, 30, min_cosine=0.65, margin=0.1)
    assert [f.row.id for f in chosen] == ["v3", "v2", "v1"]


def test_a_tie_counts_at_the_middle_of_its_positions_in_fusion():
    assert tied_ranks([3.0, 2.0, 2.0, 2.0, 1.0]) == [(1, 1.0), (2, 3.0), (2, 3.0), (2, 3.0), (5, 5.0)]
    assert tied_ranks([]) == []
    # 40 facts tied at the top of one leg do not all outrank the unit another leg puts second
    votes = LegRanking("tagvote", [row(f"f{n}", 1.0) for n in range(40)])
    vector = LegRanking("vector", [row("f0", 0.9), row("u", 0.8)])
    fused = weighted_rrf([votes, vector], {"tagvote": 1.0, "vector": 1.0})
    order = [f.row.id for f in fused]
    assert order.index("u") < order.index("f2")
    assert fused[order.index("f2")].signals["tagvote"].rank == 1  # reported as the leg ranked it


def test_sources_are_ranked_by_their_best_unit():
    def turn(id: str, episode: str, score: float) -> UnitRow:
        return row(id, score, kind="episodic", episode_id=episode, unit_kind="turn")

    vector = LegRanking("vector", [turn("t1", "e1", 0.9), turn("t2", "e2", 0.8), turn("t3", "e1", 0.7)])
    lexical = LegRanking("lexical", [turn("t4", "e2", 9.0), row("d1", 5.0, kind="episodic", unit_kind="document")])
    sources = fuse_sources([vector, lexical], {"vector": 1.0, "lexical": 1.0})
    assert [(s.id, s.kind) for s in sources] == [("e2", "episode"), ("e1", "episode"), ("d1", "document")]
    assert sources[1].signals["vector"].rank == 1 and sources[1].unit_ids == ["t1", "t3"]
    assert sources[0].signals["vector"].rank == 2  # e2 is the second *source* in the vector leg


def test_mode_parsing_is_robust_and_names_the_field():
    assert parse_mode("## Semantic") == "semantic"
    assert parse_mode(" Procedural. ") == "procedural"
    assert parse_mode(None) == "auto"
    with pytest.raises(InvalidInput) as err:
        parse_mode("everything")
    assert err.value.field == "mode"


def test_query_tags_include_words_of_phrases():
    tags = query_tags("Who is the CEO of Acme?")
    assert "Acme" in tags and "CEO" in tags


def test_recipes_pick_their_legs():
    kinds = ("semantic", "episodic", "procedural")
    settings = Settings()

    def legs(name: str, kinds: tuple[str, ...] = kinds, chosen: list[str] | None = None) -> tuple[str, ...]:
        return config_legs(recipe(name, settings), kinds, chosen)

    assert legs("vector") == ("vector",)
    assert legs("bm25") == ("lexical",)
    assert legs("plugmem") == ("vector", "tagvote")
    assert legs("hybrid", ("episodic",)) == ("vector", "lexical", "tagdocs")
    assert legs("hybrid", chosen=["vector"]) == ("vector",)
    assert legs("bm25", chosen=["vector"]) == ("lexical",)  # a baseline keeps its own legs
    assert legs("hybrid-no:tagdocs", ("episodic",)) == ("vector", "lexical")
    with pytest.raises(InvalidInput):
        legs("hybrid", chosen=["vector", "telepathy"])


def test_as_of_scope_current_vs_past():
    current = AsOf.resolve()
    # a current read takes versions whose closing record is dated later too; valid_to decides
    assert current.current and current.statuses == ["active", "superseded"] and current.known_now
    assert current.params()["open_after"] == current.as_of
    past = AsOf.resolve("2020-01-01T00:00:00Z")
    assert not past.current and "merged" in past.statuses
    believed = AsOf.resolve(known_at="2020-01-01T00:00:00Z")
    assert not believed.known_now and believed.params()["open_after"] < believed.as_of  # the records decide
    with pytest.raises(InvalidInput) as err:
        AsOf.resolve(known_at="2999-01-01T00:00:00Z")
    assert err.value.field == "known_at"


def test_extractive_guidance_picks_relevant_sentences_within_budget():
    embedder = HashingEmbedder(64)
    blocks = [
        ("f1", "[2024-01-01 · dana] The Lyon warehouse ships on Tuesday. The canteen sells soup.", False),
        ("f2", "[2024-01-02] Parking is free on Sunday.", False),
    ]
    guidance, used = extractive_guidance("when does the Lyon warehouse ship", blocks, embedder, budget=12)
    assert guidance.startswith("[2024-01-01 · dana] The Lyon warehouse ships on Tuesday.") and used == ["f1"]
    assert embedder.count_tokens(guidance) <= 12
    assert "soup" not in guidance


def test_session_bm25_rewards_terms_spread_over_a_session():
    from graphmem.read.bm25 import bm25_scores

    spread = "We planned the Lisbon trip. The trip budget is fine. Hotel booked. Flights were cheap."
    single = "Lisbon trip budget talk. Unrelated chatter about gardening and more gardening."
    scores = bm25_scores([spread, single, "nothing relevant here"], "Lisbon trip budget hotel flights")
    assert scores[0] > scores[1] > scores[2] == 0.0


def test_a_question_subject_counts_once_however_it_was_matched():
    from graphmem.read.legs.tags import question_subjects

    subjects = question_subjects(["Miguel Torres's", "Miguel", "Torres's", "Diego Alvarez", "Diego", "rollout"])
    assert set(subjects.values()) == {"Miguel Torres's", "Diego Alvarez", "rollout"}
    assert subjects["Miguel"] == subjects["Torres's"] == "Miguel Torres's" and subjects["Diego"] == "Diego Alvarez"


def test_lucene_query_makes_each_word_one_lucene_term():
    # Lucene's analyser makes a term of each Han / Hiragana character and cuts words at 255 characters:
    # one regex word of 400 such characters was 400 clauses, past Lucene's limit of 1,024 over three fields.
    assert lucene_query("日本語の本") == "日 本 語 の"
    assert lucene_query("カタカナabc ไทยx") == "カタカナ abc ไทย x"
    assert lucene_query("x" * 600) == "x" * 255
    assert len(lucene_query("日本語の" * 400 + " ".join(f"w{i}" for i in range(2000))).split()) <= 256


def test_relative_fusion_keeps_each_legs_margin():
    # Two sessions swap places between the legs: ranks alone tie them, scores do not. Session 0 wins BM25
    # by far and loses the cosine by a little, so it comes first; a third candidate sets each leg's floor.
    legs = {"lexical": [8.0, 4.0, 1.0], "vector": [0.58, 0.60, 0.30]}
    fused = relative_fusion(legs, {"lexical": 1.0, "vector": 1.0})
    assert fused[0] > fused[1] > fused[2]
    assert fused == pytest.approx([1 + 0.28 / 0.30, 3 / 7 + 1.0, 0.0])
    # leg weights scale a leg's normalised score; equal scores carry no preference
    light = relative_fusion(legs, {"lexical": 0.1, "vector": 1.0})
    assert light[1] > light[0]
    assert min_max([2.0, 2.0]) == [1.0, 1.0] and min_max([]) == []
