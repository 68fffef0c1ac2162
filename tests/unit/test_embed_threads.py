"""The query embedding stays fast on a busy machine: short calls run on GRAPHMEM_EMBED_THREADS torch threads
(two threads waiting on each other made one question cost 80-900 ms while Neo4j held a core), larger calls on
GRAPHMEM_EMBED_BATCH_THREADS, and the model is warm before the service takes its first request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from graphmem.api import Services, create_app
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import make_embedder
from graphmem.embed.sentence_transformers import (
    SHORT_CALL_CHARS,
    SHORT_CALL_MAX_TEXTS,
    SHORT_CALL_TEXTS,
    SentenceTransformerEmbedder,
    is_query_sized,
)

# The tags a HotpotQA question yields (one call of `match_tags`): more than eight texts, all short.
TAGS = ["Kiss and Tell", "Corliss Archer", "woman", "government position", "film", "portrayed", "held"]
TAGS += ["actress", "Shirley Temple", "Chief of Protocol", "United States"]


class Calls:
    """Each `encode` call of the model: (number of texts, torch threads it ran on)."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []


@pytest.fixture(scope="module")
def recorded() -> Iterator[tuple[SentenceTransformerEmbedder, Calls]]:
    import torch
    from sentence_transformers import SentenceTransformer

    calls = Calls()
    encode = SentenceTransformer.encode

    def recording(self: Any, sentences: Any, *args: Any, **kwargs: Any) -> Any:
        calls.seen.append((len(sentences), torch.get_num_threads()))
        return encode(self, sentences, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SentenceTransformer, "encode", recording)
        embedder = make_embedder(
            Settings(GRAPHMEM_EMBED_THREADS=1, GRAPHMEM_EMBED_BATCH_THREADS=2, GRAPHMEM_EMBED_QUERY_RUNTIME="torch")
        )
        assert isinstance(embedder, SentenceTransformerEmbedder)
        yield embedder, calls


def test_the_model_has_answered_a_short_question_before_it_is_handed_out(recorded) -> None:
    _, calls = recorded
    assert (1, 1) in calls.seen  # warmed at load, on the thread count questions will use


def test_a_question_runs_on_the_query_threads_and_an_ingest_batch_on_the_batch_threads(recorded) -> None:
    embedder, calls = recorded
    calls.seen.clear()
    embedder.embed(["what did the Berlin office decide about the travel budget?"])
    batch = [f"sentence number {i} of a long document about the depot" * 3 for i in range(SHORT_CALL_TEXTS + 10)]
    embedder.embed(batch)
    embedder.embed(["one more question?"])
    embedder.embed(TAGS)  # a question's tags: many texts, few characters
    assert calls.seen == [(1, 1), (SHORT_CALL_TEXTS + 10, 2), (1, 1), (len(TAGS), 1)]


def test_a_call_is_query_sized_by_its_texts_and_their_characters() -> None:
    assert is_query_sized(["a question of any length " * 40])
    assert is_query_sized(TAGS) and len(TAGS) > SHORT_CALL_TEXTS
    assert not is_query_sized(["x" * (SHORT_CALL_CHARS // 10)] * 11)  # more characters than a question has
    assert not is_query_sized(["tag"] * (SHORT_CALL_MAX_TEXTS + 1))


def test_the_service_loads_its_embedder_before_the_first_request() -> None:
    settings = Settings(GRAPHMEM_EMBEDDER="hashing:384")
    services = Services(settings=settings, store=Store("bolt://127.0.0.1:9", "neo4j", "unused"))
    with TestClient(create_app(services)):
        assert services._embedder is not None
