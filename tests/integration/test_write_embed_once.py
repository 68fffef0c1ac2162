"""Ingest embeds each text once: an existing tag, a sentence the space already holds as a fact, a tag that
joined another earlier in the call, or a text repeated within a batch is never sent to the embedder again.
Counted through a counting embedder, against a real Neo4j."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.memory_graph import MemoryGraph
from graphmem.text import normalize_tag
from graphmem.write.structurers.rules import facts_from_text

pytestmark = pytest.mark.integration

SHARED = "The billing team doubled the invoice budget for Acme Freight."
FIRST = f"Alice Martin moved the route planner to Rotterdam in March. {SHARED}"
SECOND = f"{SHARED} Hugo Laurent audited the route planner in Lyon."


class CountingEmbedder(HashingEmbedder):
    """Every text sent to the model, in order."""

    def __init__(self) -> None:
        super().__init__(384)
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return super().embed(texts)


def drafts(text: str) -> list:
    return facts_from_text(text, max_facts=Settings().max_facts_per_document, titles=True)


def test_a_second_document_embeds_only_the_sentence_and_tags_the_space_has_not_seen(store: Store, space: str) -> None:
    embedder = CountingEmbedder()
    graph = MemoryGraph(store, embedder, Settings())
    graph.ingest_documents(space, [{"text": FIRST, "author": "Alice Martin", "event_at": "2024-03-05T10:00:00Z"}])
    first_tags = {normalize_tag(t) for d in drafts(FIRST) for t in d.tags}
    embedder.texts.clear()

    second = graph.ingest_documents(space, [{"text": SECOND, "author": "Hugo Laurent", "event_at": "2024-04-01"}])

    new_sentence = [d for d in drafts(SECOND) if d.text != SHARED]
    new_tags = {normalize_tag(t) for d in drafts(SECOND) for t in d.tags} - first_tags
    assert second.failed == 0 and second.created["Semantic"] == 2
    assert SHARED not in embedder.texts
    assert not {normalize_tag(t) for t in embedder.texts} & first_tags
    assert second.embedded == {"evidence": 1, "facts": len(new_sentence), "tags": len(new_tags)}
    assert second.embedded_texts == len(embedder.texts) == 1 + len(new_sentence) + len(new_tags)
    vectors = store.run_read_text(
        "MATCH (f:Semantic {space: $space, text: $fact}) RETURN f.embedding AS v", space=space, fact=SHARED
    )
    assert len(vectors) == 2 and vectors[0]["v"] == vectors[1]["v"] == embedder.embed([SHARED])[0]


def test_a_tag_that_joined_another_is_embedded_once_per_call_and_a_repeated_text_once_per_batch(
    store: Store, space: str
) -> None:
    # The hashing embedder gives "Martin Alice" the vector of "Alice Martin": another normal form, one meaning.
    embedder = CountingEmbedder()
    graph = MemoryGraph(store, embedder, Settings(GRAPHMEM_INGEST_BATCH_SIZE=1))
    summary = graph.ingest_documents(
        space,
        [
            {"text": "Alice Martin approved the budget.", "event_at": "2024-01-01"},
            {"text": "Martin Alice approved the plan. Martin Alice approved the plan.", "event_at": "2024-01-02"},
            {"text": "Martin Alice signed the contract.", "event_at": "2024-01-03"},
        ],
    )

    assert summary.failed == 0
    assert embedder.texts.count("Martin Alice") == 1
    assert max(Counter(embedder.texts).values()) == 1
    names = store.run_read_text("MATCH (t:Tag {space: $space}) RETURN t.norm_name AS n", space=space)
    assert "martin alice" not in {r["n"] for r in names}  # it joined "Alice Martin" and stayed joined
    linked = store.run_read_text(
        "MATCH (f:Semantic {space: $space}) "
        "RETURN count(f) AS facts, "
        "sum(CASE WHEN EXISTS { (:Tag {norm_name: 'alice martin'})-[:TAGS]->(f) } THEN 1 ELSE 0 END) AS linked",
        space=space,
    )
    assert linked[0]["facts"] == summary.created["Semantic"] >= 3
    assert linked[0]["linked"] == linked[0]["facts"]  # every fact names her, under either spelling
