"""The lexical leg scores BM25 with its own space's statistics — real Neo4j: another tenant's data, however
much of it and whatever its words, never moves a space's lexical ranking or its scores."""

from __future__ import annotations

import uuid

import pytest

from graphmem.read.asof import AsOf
from graphmem.read.bm25 import bm25_scores
from graphmem.read.legs.lexical import TEXT_FIELDS, in_space_query, lexical_leg, lucene_query
from tests.support.graph_builder import GraphBuilder

pytestmark = pytest.mark.integration

QUESTION = "harbour pilot crane schedule"
TEXTS = [
    "The harbour pilot boards inbound vessels at dawn",
    "The harbour crane schedule moves to the night shift",
    "Crane maintenance happens every second Tuesday",
    "Pilot licences are renewed by the harbour office",
]


def leg(store, minilm, space):
    ranking = lexical_leg(
        store, space, QUESTION, minilm.embed([QUESTION])[0], AsOf.resolve(None, None), ("semantic",), k=10
    )
    return [(row.id, row.score) for row in ranking.rows]


def lucene_scores(store, minilm, space) -> dict[str, float]:
    rows = store.read(
        "read/fulltext_units",
        kinds=["semantic"],
        queries={"semantic": in_space_query(lucene_query(QUESTION), space, TEXT_FIELDS["semantic"])},
        space=space,
        k=10,
        fetch=200,
        **AsOf.resolve(None, None).params(),
    )
    return dict(zip(rows[0]["ids"], rows[0]["scores"], strict=True))


def test_another_spaces_data_never_moves_a_spaces_lexical_ranking_or_scores(store, minilm, space):
    build = GraphBuilder(store, minilm, space)
    ids = [build.semantic(text) for text in TEXTS]
    alone = leg(store, minilm, space)
    lucene_alone = lucene_scores(store, minilm, space)
    # The space's own BM25: IDF over its four units, every one a hit, so the length norm is theirs too.
    expected = dict(zip(ids, bm25_scores(TEXTS, QUESTION), strict=True))
    assert {i: pytest.approx(s) for i, s in alone} == expected
    assert [i for i, _ in alone] == sorted(expected, key=lambda i: -expected[i])

    other = f"loud-{uuid.uuid4().hex[:12]}"  # a name that holds no phrase of the test space's
    store.run_write_text(
        "UNWIND range(1, 400) AS i CREATE (n:Semantic {id: $space + '-' + toString(i), space: $space, "
        "text: 'pilot pilot ' + CASE WHEN i % 2 = 0 THEN 'harbour' ELSE 'boarding' END, status: 'active', "
        "valid_from: datetime('2020-01-01'), valid_to: datetime('9999-12-31'), recorded_at: datetime('2020-01-01'), "
        "expired_at: datetime('9999-12-31'), importance: 1.0, credibility: 1.0})",
        space=other,
    )
    try:
        # Lucene's index-wide statistics did move: "pilot" and "harbour" are common now...
        beside = lucene_scores(store, minilm, space)
        assert any(beside[i] != pytest.approx(lucene_alone[i]) for i in ids)
        # ...and the space's ranking and scores are exactly what they were alone
        assert leg(store, minilm, space) == alone
    finally:
        store.run_write_text("MATCH (n:Semantic {space: $space}) DETACH DELETE n", space=other)


def test_a_term_only_other_spaces_hold_weighs_nothing_in_a_space(store, minilm, space):
    # A space's scores tell it nothing about which words other spaces use: "crane" is rare in a big
    # neighbour or absent from every other space, the space's own hits score the same.
    build = GraphBuilder(store, minilm, space)
    for text in TEXTS:
        build.semantic(text)
    before = leg(store, minilm, space)
    other = f"other-{uuid.uuid4().hex[:12]}"
    GraphBuilder(store, minilm, other).semantic("crane crane crane schedule")
    try:
        assert leg(store, minilm, space) == before
    finally:
        store.run_write_text("MATCH (n:Semantic {space: $space}) DETACH DELETE n", space=other)


def test_a_space_bigger_than_the_live_cap_scores_from_its_profile_the_same(store, minilm, space):
    # Counted live up to 3, the space's 8 units and its common terms come from the kept profile, which
    # samples every unit of a space this small: the scores are the space's exact BM25, and stay so beside
    # a loud neighbour.
    texts = [*TEXTS, "Harbour crane spare parts", "The harbour pilot rota", "Pilot boat fuel", "Harbour pilot crane"]
    build = GraphBuilder(store, minilm, space)
    ids = [build.semantic(text) for text in texts]

    def capped():
        ranking = lexical_leg(
            store, space, QUESTION, minilm.embed([QUESTION])[0], AsOf.resolve(None, None), ("semantic",), 10, 4, 3
        )
        return {row.id: row.score for row in ranking.rows}

    expected = dict(zip(ids, bm25_scores(texts, QUESTION), strict=True))
    alone = capped()
    assert alone == {i: pytest.approx(s) for i, s in expected.items()}
    other = f"loud-{uuid.uuid4().hex[:12]}"
    GraphBuilder(store, minilm, other).semantic("pilot pilot harbour crane crane")
    try:
        assert capped() == alone
    finally:
        store.run_write_text("MATCH (n:Semantic {space: $space}) DETACH DELETE n", space=other)


def test_new_units_in_a_space_count_at_its_next_question(store, minilm, space):
    build = GraphBuilder(store, minilm, space)
    texts = list(TEXTS)
    for text in texts:
        build.semantic(text)
    leg(store, minilm, space)  # the profile (4 units) is kept now
    texts.append("A second crane schedule for the harbour pilot")
    ids_after = build.semantic(texts[-1])
    scores = dict(leg(store, minilm, space))
    assert scores[ids_after] == pytest.approx(bm25_scores(texts, QUESTION)[-1])


def test_a_long_question_counts_a_bounded_number_of_terms_and_scores_the_same(store, minilm, space):
    # 70 distinct words: the first 64 are counted live, the rest are read from the space's sampled units,
    # which in a space this small are all of them; the scores are still the space's exact BM25.
    question = " ".join([*(f"filler{i}" for i in range(66)), "harbour", "pilot", "crane", "schedule"])
    build = GraphBuilder(store, minilm, space)
    ids = [build.semantic(text) for text in TEXTS]
    reads = []
    read = store.read

    def counting(name, **params):
        if name == "read/lexical_stats":
            reads.append(max(len(terms) for terms in params["terms"].values()))
        return read(name, **params)

    store.read = counting
    try:
        ranking = lexical_leg(
            store, space, question, minilm.embed([question])[0], AsOf.resolve(None, None), ("semantic",), k=10
        )
    finally:
        del store.read
    assert reads == [64]
    expected = dict(zip(ids, bm25_scores(TEXTS, question), strict=True))
    assert {row.id: row.score for row in ranking.rows} == {i: pytest.approx(s) for i, s in expected.items() if s > 0}
