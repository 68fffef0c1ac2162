"""Full-text queries graphmem builds from user text — real Neo4j: no Lucene syntax error, no space-name match."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from tests.support.graph_builder import GraphBuilder

pytestmark = pytest.mark.integration

# Lucene's operators and special characters, words it reads as operators, and scripts its analyser splits
# into many terms per word (each CJK character is one term).
LUCENE_SYNTAX = [*'+-&|!(){}[]^"~*?:\\/ ', "AND", "OR", "NOT", "TO", "&&", "||", "text:", "space:", "日本語"]
NASTY = [
    "2014 S/S",
    '"unbalanced quote',
    "(unbalanced [bracket {",
    "budget AND",
    "OR NOT",
    "*",
    "~",
    "?",
    "title:",
    "field:value",
    "\\",
    "a\\",
    "/regex/",
    "[a TO z]",
    "budget^",
    "日本語の" * 400,
    "x" * 5000,
    " ".join(f"w{i}" for i in range(2000)),
    "\x00\u2028\ufeff",
]
nasty_text = st.one_of(
    st.sampled_from(NASTY),
    st.lists(st.sampled_from(LUCENE_SYNTAX) | st.text(max_size=6), max_size=40).map("".join),
)


@pytest.fixture
def graph(store, minilm) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings())


def test_lucene_syntax_in_a_question_never_raises_on_any_leg(graph, build_space):
    @settings(max_examples=60, deadline=None)
    @given(question=nasty_text)
    def ask(question: str) -> None:
        for variant in ("bm25", "hybrid"):
            try:
                graph.recall(question, build_space, variant=variant)  # a Lucene parse or clause-limit error raises
            except InvalidInput as exc:  # a question with no text at all is the caller's error, named
                assert exc.field == "text" and not question.strip(), exc

    ask()


@pytest.mark.parametrize("question", NASTY)
def test_each_known_lucene_trap_is_plain_text(graph, build_space, question):
    graph.recall(question, build_space, variant="bm25")


@pytest.fixture
def build_space(store, minilm, space) -> str:
    GraphBuilder(store, minilm, space).semantic("The 2014 S/S collection budget AND its title: spring")
    return space


def test_a_word_equal_to_a_space_name_matches_nothing_in_the_full_text_indexes(store, minilm, space):
    # An analyst's unqualified full-text query searches every field of the index; with `space` among them,
    # a word equal to the space's name matched (and scored) every node of that space.
    name = space.replace("-", "")
    builder = GraphBuilder(store, minilm, name)
    builder.semantic("The cafeteria opens at eight")
    builder.episodic("Lunch is served at noon")
    try:
        for index in ("semantic_text", "episodic_text", "procedural_text"):
            rows = store.run_read_text(
                "CALL db.index.fulltext.queryNodes($index, $name) YIELD node RETURN node.id AS id",
                index=index,
                name=name,
            )
            assert rows == [], index
    finally:
        store.run_write_text("MATCH (n {space: $space}) DETACH DELETE n", space=name)
