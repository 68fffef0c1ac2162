"""Read-path acceptance on small hand-built graphs in a real Neo4j: rankings a user would notice."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from graphmem.read.asof import AsOf
from graphmem.read.legs.lexical import TEXT_FIELDS, in_space_query, lexical_leg, lucene_query
from tests.support.graph_builder import GraphBuilder, at

pytestmark = pytest.mark.integration


@pytest.fixture
def graph(store, minilm) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings())


@pytest.fixture
def build(store, minilm, space) -> GraphBuilder:
    return GraphBuilder(store, minilm, space)


def ids(hits) -> list[str]:
    return [h.id for h in hits]


def test_exact_tag_match_outranks_fuzzy_one(graph, build, space):
    # Same text, so the dense and lexical legs tie and only the tags can tell the facts apart.
    fuzzy_fact = build.semantic("Parking rule: reserved for visitors on weekdays", tags=[build.tag("automobile")])
    exact_fact = build.semantic("Parking rule: reserved for visitors on weekdays", tags=[build.tag("car")])

    votes = graph.tag_vote("Where may I park my car?", space)
    assert {(m.name, m.match) for m in votes.matches} >= {("car", "exact"), ("automobile", "fuzzy")}
    assert ids(votes.facts)[:2] == [exact_fact, fuzzy_fact]
    assert votes.facts[0].score > votes.facts[1].score

    hybrid = graph.recall("Where may I park my car?", space, mode="semantic", k=5)
    ranked = ids(hybrid.hits)
    assert ranked.index(exact_fact) < ranked.index(fuzzy_fact)
    assert hybrid.hits[ranked.index(exact_fact)].signals["tagvote"].rank == 1


def test_a_fuzzy_tag_match_keeps_the_question_s_numbers(graph, build, space):
    # "ward-4c" is at cosine 0.86 to "ward-7b", "ward-7b particulars" at 0.87: only the latter names ward-7b.
    other = build.semantic("beds: 20 on the ward", tags=[build.tag("ward-4c")])
    asked = build.semantic("beds: 22 on the ward", tags=[build.tag("ward-7b particulars")])
    votes = graph.tag_vote("How many beds does ward-7b have?", space)
    assert ("ward-7b particulars", "fuzzy") in {(m.name, m.match) for m in votes.matches}
    assert "ward-4c" not in {m.name for m in votes.matches}
    assert ids(votes.facts) == [asked] and other not in ids(votes.facts)


def test_a_rare_tag_votes_more_than_a_name_on_every_fact(graph, build, space):
    # A chat between two people: their names tag every fact. The question names one of them and a topic;
    # the fact tagged with the rare topic must win the vote, not any fact that merely names the person.
    caroline, research = build.tag("Caroline"), build.tag("research")
    lines = ["Wow, what a great picture!", "Hey, how was your week?", "What did it look like?"]
    lines += [f"Thanks for the chat number {n}" for n in range(12)]
    chatter = [build.semantic(f"Caroline: {line}", tags=[caroline]) for line in lines]
    answer = build.semantic("Caroline: researching adoption agencies this month", tags=[caroline, research])
    votes = graph.tag_vote("What did Caroline research?", space, k=5)
    assert ids(votes.facts)[0] == answer
    assert votes.facts[0].score > votes.facts[1].score  # not a tie with the chatter
    assert set(ids(votes.facts[1:])) <= set(chatter)


def test_a_facts_votes_are_shared_among_all_its_tags(graph, build, space):
    # Both facts carry the matched tag; the one with three more (unmatched) tags gets a quarter of the vote.
    car = build.tag("car")
    focused = build.semantic("Parking rule: reserved for visitors on weekdays", tags=[car])
    others = [build.tag(name) for name in ("volcano", "accounting", "zebra")]
    broad = build.semantic("Parking rule: reserved for visitors on weekdays", tags=[car, *others])
    votes = graph.tag_vote("Where may I park my car?", space)
    ranked = ids(votes.facts)
    assert ranked.index(focused) < ranked.index(broad)
    by_id = {f.id: f for f in votes.facts}
    assert (by_id[focused].value["tag_count"], by_id[broad].value["tag_count"]) == (1.0, 4.0)
    assert by_id[broad].value["votes"] / 4 == pytest.approx(by_id[broad].score)


def test_superseded_and_merged_facts_never_answer_a_current_question(graph, build, space):
    acme = build.tag("Acme")
    old = build.semantic("The CEO of Acme is Alice Martin", tags=[acme], valid_from=at("2019-01-01"))
    new = build.semantic("The CEO of Acme is Bob Chen", tags=[acme], valid_from=at("2023-03-01"))
    build.supersede(new, old, at("2023-03-01"))
    source = build.semantic("Acme's headquarters are in Lyon", tags=[acme])
    merged = build.semantic("Acme is headquartered in Lyon, France", tags=[acme])
    build.merge(merged, source, at("2024-01-01"))

    for variant in ("hybrid", "vector", "bm25", "tagvote", "plugmem"):
        result = graph.recall("Who is the CEO of Acme and where is it based?", space, variant=variant, k=10)
        found = ids(result.hits)
        assert old not in found, variant
        assert source not in found, variant
        assert all(h.status == "active" for h in result.hits), variant
    hybrid = graph.recall("Who is the CEO of Acme?", space, k=10)
    assert ids(hybrid.hits)[0] == new
    assert merged in ids(graph.recall("Where is Acme headquartered?", space, k=10).hits)


def test_as_of_question_gets_the_version_valid_then_and_nothing_later(graph, build, space):
    acme = build.tag("Acme")
    old = build.semantic("The CEO of Acme is Alice Martin", tags=[acme], valid_from=at("2019-01-01"))
    new = build.semantic("The CEO of Acme is Bob Chen", tags=[acme], valid_from=at("2023-03-01"))
    build.supersede(new, old, at("2023-03-01"))
    episode = build.episode(goal="board meeting", started_at=at("2023-04-01"))
    build.episodic("Bob Chen chaired his first board meeting as CEO of Acme", episode_id=episode, seq=0,
                   event_at=at("2023-04-01"))  # fmt: skip

    as_of = at("2022-06-01")
    result = graph.recall("Who is the CEO of Acme?", space, as_of="2022-06-01T00:00:00Z", k=10)
    assert ids(result.hits)[0] == old
    assert new not in ids(result.hits)
    assert all(h.valid_from is None or h.valid_from <= as_of for h in result.hits)
    assert all(h.event_at is None or h.event_at <= as_of for h in result.hits)
    assert "2023" not in result.evidence

    later = graph.recall("Who is the CEO of Acme?", space, as_of="2024-01-01T00:00:00Z", k=10)
    assert ids(later.hits)[0] == new
    assert old not in ids(later.hits)


def test_known_at_hides_what_was_recorded_later(graph, build, space):
    fact = build.semantic("The Lyon office closes on Fridays", recorded_at=at("2024-05-01"))
    assert fact in ids(graph.recall("When does the Lyon office close?", space).hits)
    earlier = graph.recall("When does the Lyon office close?", space, known_at="2024-01-01T00:00:00Z")
    assert fact not in ids(earlier.hits)


def test_higher_return_procedure_outranks_an_equally_relevant_one(graph, build, space):
    subgoal = build.subgoal("book a meeting room")
    low = build.procedural("Book the room through the facilities portal", subgoal_id=subgoal, ret=0.1)
    high = build.procedural("Book the room through the facilities portal", subgoal_id=subgoal, ret=0.9)

    routed = graph.route_subgoal("reserve a meeting room", space)
    assert ids(routed)[:2] == [high, low]
    assert routed[0].value["return"] > routed[1].value["return"]

    result = graph.recall("how do I book a meeting room?", space, mode="procedural", k=5)
    assert ids(result.hits)[:2] == [high, low]
    assert "subgoal" in result.hits[0].signals


def test_a_space_never_sees_another_spaces_data(graph, store, minilm, space):
    other = f"{space}-other"
    mine = GraphBuilder(store, minilm, space).semantic("The Lyon office closes on Fridays")
    theirs = GraphBuilder(store, minilm, other).semantic("The Lyon office closes on Fridays")
    for variant in ("hybrid", "vector", "bm25", "plugmem"):
        found = ids(graph.recall("When does the Lyon office close?", space, variant=variant).hits)
        assert mine in found and theirs not in found, variant
    assert ids(graph.recall_sources("Lyon office", other, k=5)) == []
    from graphmem.errors import NotFound

    with pytest.raises(NotFound):
        graph.provenance(theirs, space)


@pytest.mark.parametrize("name", ['{} "quoted" \\ back:slash', "{}/日本/AND/*", "{} x"])
def test_lexical_leg_finds_a_space_by_any_name_and_only_that_space(graph, store, minilm, space, name):
    # Lucene is asked for the space's own hits by a phrase on its name: quotes, backslashes, operators and
    # non-Latin words must not break it, and a longer space holding the same words must not leak in.
    mine = name.format(space)
    fact = GraphBuilder(store, minilm, mine).semantic("The Lyon office closes on Fridays")
    longer = GraphBuilder(store, minilm, f"big {mine} and more").semantic("Lyon office Lyon office closes")
    neighbour = GraphBuilder(store, minilm, f"{space} other")
    theirs = [neighbour.semantic("Lyon office Lyon office closes closes on Fridays") for _ in range(3)]
    result = graph.recall("When does the Lyon office close?", mine, variant="bm25")
    assert ids(result.hits) == [fact]
    assert not {longer, *theirs} & set(ids(graph.recall("Lyon office", mine, variant="hybrid").hits))
    # Lucene itself kept to the space: the neighbour's louder facts were no hits to scan (the longer
    # space's one was: its name holds the phrase, and the Cypher filter after Lucene drops it)
    rows = store.read(
        "read/fulltext_units",
        kinds=["semantic"],
        queries={"semantic": in_space_query(lucene_query("Lyon office"), mine, TEXT_FIELDS["semantic"])},
        space=mine,
        k=10,
        fetch=200,
        **AsOf.resolve(None, None).params(),
    )
    assert rows[0]["ids"] == [fact] and rows[0]["scanned"] == 2


def test_a_space_without_words_falls_back_to_filtering_after_lucene(graph, store, minilm, space):
    wordless = "-- ++ --"
    fact = GraphBuilder(store, minilm, wordless).semantic(f"The Lyon office {space} closes on Fridays")
    try:
        assert ids(graph.recall(f"Lyon office {space}", wordless, variant="bm25").hits) == [fact]
    finally:
        store.run_write_text("MATCH (n {space: $space}) DETACH DELETE n", space=wordless)


def test_lexical_leg_finds_a_space_whose_hits_rank_below_other_spaces_first_fetch(graph, store, minilm, space):
    # Lucene's first top 200 holds only the louder space's hits; the leg asks again with a bigger fetch.
    fact = GraphBuilder(store, minilm, space).semantic("The Lyon office closes on Fridays after the audit")
    store.run_write_text(
        "UNWIND range(1, 240) AS i CREATE (n:Semantic {id: $space + '-' + toString(i), space: $space, "
        "text: 'Lyon office Lyon office Fridays', status: 'active', valid_from: datetime('2020-01-01'), "
        "valid_to: datetime('9999-12-31'), recorded_at: datetime('2020-01-01'), "
        "expired_at: datetime('9999-12-31'), importance: 1.0, credibility: 1.0})",
        space=f"{space}-loud",
    )
    try:
        assert ids(graph.recall("Lyon office Fridays", space, variant="bm25").hits) == [fact]
    finally:
        store.run_write_text("MATCH (n {space: $space}) DETACH DELETE n", space=f"{space}-loud")


def test_lucene_syntax_in_the_question_is_plain_text(graph, build, space):
    fact = build.semantic("Use the b OR c escape hatch for a and b")
    nasty = '"a AND (b OR c:)~ \\ / ^ * ? [ ] && || !'
    result = graph.recall(nasty, space, variant="bm25")
    assert ids(result.hits) == [fact]
    assert result.hits[0].signals["lexical"].rank == 1


def test_session_with_three_hits_comes_back_whole_in_order(graph, build, space):
    episode = build.episode(goal="planning the Lisbon offsite", session_id="s-42", started_at=at("2024-02-01"))
    turns = [
        "Let's plan the Lisbon offsite for the data team",
        "The Lisbon offsite venue is the Alfama loft",
        "Weather in between was mild",
        "The Lisbon offsite budget is 12,000 euros",
        "Lisbon offsite dinner is booked at Ramiro",
    ]
    unit_ids = [
        build.episodic(t, episode_id=episode, seq=i, author="ana" if i % 2 else "ben", event_at=at("2024-02-01"))
        for i, t in enumerate(turns)
    ]
    build.semantic("Unrelated: the printer on floor 2 is broken")

    result = graph.recall("What do we know about the Lisbon offsite?", space, mode="episodic", k=4)
    assert [e.episode_id for e in result.episodes] == [episode]
    assert [u.id for u in result.episodes[0].units] == unit_ids
    positions = [result.evidence.index(t) for t in turns]
    assert positions == sorted(positions)
    assert "[2024-02-01 · ana]" in result.evidence


def test_long_session_is_found_by_a_late_turn(graph, build, space):
    """A session is ranked by its best turn, not by an embedding of its first 256 word pieces."""
    filler = "We talked about the weather, the commute and weekend plans at great length. " * 6
    target = build.episode(session_id="long", started_at=at("2024-03-01"))
    for i in range(12):
        build.episodic(filler, episode_id=target, seq=i, event_at=at("2024-03-01"))
    build.episodic("My sister adopted a greyhound called Pixel last month", episode_id=target, seq=12,
                   event_at=at("2024-03-01"))  # fmt: skip
    for n in range(6):
        other = build.episode(session_id=f"other-{n}", started_at=at("2024-03-02"))
        build.episodic(f"Chat {n} about recipes for lentil soup and bread", episode_id=other, seq=0,
                       event_at=at("2024-03-02"))  # fmt: skip
    for variant in ("hybrid", "vector", "bm25"):
        sources = graph.recall_sources("What dog did my sister adopt?", space, k=3, variant=variant)
        assert sources[0].id == target, variant
        assert sources[0].kind == "episode" and sources[0].session_id == "long"


def test_evidence_respects_the_token_budget(graph, build, space, minilm):
    for i in range(8):
        build.semantic(f"Fact {i}: the Lyon warehouse ships orders on weekday number {i}", author=f"clerk{i}")
    result = graph.recall("When does the Lyon warehouse ship?", space, k=8, token_budget=40)
    assert 0 < result.evidence_tokens <= 40
    assert minilm.count_tokens(result.evidence) == result.evidence_tokens
    first = result.hits[0]
    assert result.evidence.startswith(f"[{first.event_at:%Y-%m-%d} · {first.author}]")


def test_latest_dated_matches_get_reserved_slots(graph, build, space):
    for i in range(9):
        build.semantic(f"Release notes for the Lyon app version 1.{i}: deployment checklist and fixes",
                       valid_from=at(f"2021-0{i + 1}-01"))  # fmt: skip
    newest = build.semantic("Lyon app", valid_from=at("2024-06-01"))
    hits = graph.recall("Lyon app release notes deployment checklist fixes", space, mode="semantic", k=6).hits
    assert newest in ids(hits)
    assert next(h for h in hits if h.id == newest).latest_slot
    plain = graph.recall("Lyon app release notes deployment checklist fixes", space, mode="semantic", k=6,
                         latest_slots=0).hits  # fmt: skip
    assert newest not in ids(plain)


def test_bad_input_names_the_field(graph, space):
    for kwargs, field in (
        ({"text": "  "}, "text"),
        ({"k": 0}, "k"),
        ({"mode": "everything"}, "mode"),
        ({"variant": "magic"}, "variant"),
        ({"as_of": "last tuesday"}, "as_of"),
        ({"legs": ["vector", "psychic"]}, "legs"),
    ):
        args = {"text": "anything", **kwargs}
        text = args.pop("text")
        with pytest.raises(InvalidInput) as err:
            graph.recall(text, space, **args)
        assert err.value.field == field


def test_session_lexical_score_counts_every_turn(graph, build, space):
    """BM25 on the whole session: evidence spread over several turns beats one turn that matches best."""
    spread = build.episode(session_id="spread", started_at=at("2024-05-01"))
    for i, text in enumerate(
        ["We planned the Lisbon trip", "The trip budget is fine", "Hotel booked near the river",
         "Flights were cheap", "Lisbon hotel has a pool"]
    ):  # fmt: skip
        build.episodic(text, episode_id=spread, seq=i, event_at=at("2024-05-01"))
    single = build.episode(session_id="single", started_at=at("2024-05-02"))
    build.episodic("Lisbon trip budget talk", episode_id=single, seq=0, event_at=at("2024-05-02"))
    for i in range(1, 5):
        build.episodic(f"Unrelated chatter number {i} about gardening", episode_id=single, seq=i,
                       event_at=at("2024-05-02"))  # fmt: skip
    sources = graph.recall_sources("Lisbon trip budget hotel flights", space, k=2, variant="bm25")
    assert [s.session_id for s in sources] == ["spread", "single"]
    assert sources[0].signals["lexical"].rank == 1


def test_session_ranking_keeps_the_margin_of_each_leg(graph, store, minilm, build, space):
    """The session that wins whole-session BM25 by far and loses the best-turn cosine by a little comes
    first; fusing ranks alone tied the two and gave the session with the closer single turn the top."""
    sessions = {
        "boots": [
            "The Salomon boots arrived on Monday",
            "Those boots felt stiff on the first hiking day",
            "Hiking with stiff boots gave me blisters",
            "Boots, socks and a hiking pole are packed",
            "Hiking boots need a week of wear before a long hike",
        ],
        "footwear question": [
            "What trekking footwear should I purchase for my journey?",
            "Let us talk about the weather today",
        ],
        "groceries": ["Groceries were delivered this week", "The weather was sunny"],
        "cat": ["My cat sleeps all day", "Dentist visit went fine"],
    }  # fmt: skip
    for n, (session_id, turns) in enumerate(sessions.items()):
        episode = build.episode(session_id=session_id, started_at=at(f"2024-04-0{n + 1}"))
        for seq, text in enumerate(turns):
            build.episodic(text, episode_id=episode, seq=seq, event_at=at(f"2024-04-0{n + 1}"))
    question = "Which hiking boots did I buy for the trip?"
    sources = graph.recall_sources(question, space, k=4)
    assert [s.session_id for s in sources][:2] == ["boots", "footwear question"]
    assert sources[0].signals["lexical"].rank == 1 and sources[1].signals["vector"].rank == 1
    by_ranks = MemoryGraph(store, minilm, Settings(GRAPHMEM_READ_SOURCE_FUSION="rrf"))
    assert [s.session_id for s in by_ranks.recall_sources(question, space, k=4)][:2] == ["footwear question", "boots"]


def test_lexical_leg_asks_again_for_a_kind_whose_first_fetch_held_only_old_versions(graph, build, store, space):
    # 240 superseded versions outscore the one current fact in BM25 and fill the first fetch (200 hits):
    # the semantic index is asked again with a bigger fetch, the episodic answer from the first one stands
    current = build.semantic("The Lyon office closes at noon on Fridays")
    document = build.episodic(text="Memo: the Lyon office Friday hours change in June")
    store.run_write_text(
        "UNWIND range(1, 240) AS n "
        "CREATE (:Semantic {id: $space + ':old' + n, space: $space, text: 'Lyon office Lyon office Fridays Lyon', "
        "status: 'superseded', valid_from: $t0, valid_to: $t0 + duration('P1D'), recorded_at: $t0, "
        "expired_at: $far, event_at: $t0, importance: 1.0, credibility: 1.0, embedding: $vector})",
        space=space,
        t0=at("2024-01-01"),
        far=at("9999-12-31"),
        vector=build._vector("Lyon office Fridays"),
    )
    calls = []
    read, read_rows = store.read, store.read_rows

    def counting(name, **params):
        calls.append((name, params.get("kinds"), params.get("fetch")))
        return read(name, **params)

    def counting_rows(name, **params):
        calls.append((name, params.get("kinds"), params.get("fetch")))
        return read_rows(name, **params)

    store.read, store.read_rows = counting, counting_rows
    try:
        ranking = lexical_leg(
            store,
            space,
            "Lyon office Fridays",
            build._vector("Lyon office Fridays"),
            AsOf.resolve(None, None),
            ("semantic", "episodic"),
            k=5,
        )
    finally:
        del store.read, store.read_rows
    assert {row.id for row in ranking.rows} == {current, document}
    assert [call for call in calls if call[0] == "read/fulltext_units"] == [
        ("read/fulltext_units", ["semantic", "episodic"], 200),
        ("read/fulltext_units", ["semantic"], 1600),
    ]
    # the space's own BM25 statistics are read once whatever the fetches, the chosen rows' columns once
    assert sorted(call[0] for call in calls if call[0] != "read/fulltext_units") == [
        "read/lexical_profile",
        "read/lexical_profile",
        "read/lexical_stats",
        "read/lexical_units",
    ]


def test_a_question_naming_a_speaker_finds_what_was_said_to_them(store, minilm, space):
    # Every turn carries its speaker's name; a question naming Melanie must not be answered with her
    # content-free turns when Caroline's turn holds the answer (LoCoMo's adversarial questions). On LoCoMo
    # this took hybrid turn recall@5 from 0.492 to 0.609; this fixture shows the mechanism.
    filler = ["Wow, Caroline, that looks amazing!", "That's so cool, Caroline!", "Haha, love it, Caroline!"]
    turns = []
    for n in range(6):
        turns.append({"speaker": "Melanie", "text": filler[n % 3] + f" Tell me more about day {n}."})
        turns.append({"speaker": "Caroline", "text": f"Day {n} was busy at the community center, lots of new faces."})
    turns.append(
        {"speaker": "Caroline", "text": "Thanks, Melanie! This necklace was a gift from my grandma in Sweden."}
    )
    sessions = [{"session_id": "s1", "date": "2023-05-08T13:56:00Z", "turns": turns}]
    MemoryGraph(store, minilm, Settings()).ingest_chat_sessions(space, sessions)
    question = "What country is Melanie's grandma from?"

    result = MemoryGraph(store, minilm, Settings()).recall(question, space, k=10, related=False)
    # the names of the conversation's two speakers are left out of what the dense legs embed
    assert result.plan.dense_query == "What country is grandma from?"
    assert result.to_dict()["dense_query"] == "What country is grandma from?"
    turns = [h.text for h in result.hits if h.kind == "episodic"]
    assert "grandma in Sweden" in turns[0]
    plain = MemoryGraph(store, minilm, Settings(GRAPHMEM_READ_PARTICIPANT_SHARE=2)).recall(question, space, k=10)
    assert plain.plan.dense_query is None  # turned off: the question is embedded as asked
    only_vector = MemoryGraph(store, minilm, Settings()).recall(question, space, k=10, variant="vector")
    assert only_vector.plan.dense_query is None  # plain retrieval reads the question as asked
