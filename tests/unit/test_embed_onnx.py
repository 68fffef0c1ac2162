"""Short embedding calls run in ONNX Runtime on the model's own weights: the same vectors as torch for the
same texts (questions, long ones cut at the model's limit, several at once), an export made once and
reused, a damaged export replaced, and torch wherever ONNX Runtime is not there."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed import make_embedder
from graphmem.embed.sentence_transformers import SHORT_CALL_MAX_TEXTS, SentenceTransformerEmbedder

QUESTIONS = [
    "what did the Berlin office decide about the travel budget?",
    "wer leitet das Lager in Hamburg seit März?",
    "ward-7b visiting hours",
    "x",
    "a very long question " + "about the shipping schedule of the northern depot " * 60,  # past 256 tokens
]


def _embedder(cache: Path, runtime: str = "onnx") -> SentenceTransformerEmbedder:
    embedder = make_embedder(Settings(GRAPHMEM_CACHE_DIR=str(cache), GRAPHMEM_EMBED_QUERY_RUNTIME=runtime))
    assert isinstance(embedder, SentenceTransformerEmbedder)
    return embedder


def _exports(cache: Path) -> list[Path]:
    return sorted((cache / "onnx").glob("*.onnx"))


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("graphmem-cache")


@pytest.fixture(scope="module")
def onnx(cache: Path) -> SentenceTransformerEmbedder:
    return _embedder(cache)


def _torch_vectors(embedder: SentenceTransformerEmbedder, texts: list[str]) -> np.ndarray:
    """The same texts through the torch (batch) path: padded past the short-call size."""
    filler = [f"filler sentence {i}" for i in range(SHORT_CALL_MAX_TEXTS + 1)]
    return np.asarray(embedder.embed(texts + filler)[: len(texts)])


def test_short_calls_run_in_onnx_runtime_with_the_vectors_torch_gives(onnx: SentenceTransformerEmbedder) -> None:
    assert onnx.query_runtime == "onnx"
    expected = _torch_vectors(onnx, QUESTIONS)
    one_by_one = np.asarray([onnx.embed([q])[0] for q in QUESTIONS])
    together = np.asarray(onnx.embed(QUESTIONS))  # padded to the longest in one call
    for got in (one_by_one, together):
        assert got.shape == (len(QUESTIONS), onnx.dimensions)
        np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
        assert (got * expected).sum(axis=1).min() > 0.9999


def test_the_export_is_made_once_and_reused(cache: Path, onnx: SentenceTransformerEmbedder) -> None:
    [export] = _exports(cache)
    stamp = export.stat().st_mtime_ns
    again = _embedder(cache)
    assert again.query_runtime == "onnx"
    assert _exports(cache) == [export] and export.stat().st_mtime_ns == stamp


def test_a_damaged_export_is_made_again(tmp_path: Path, onnx: SentenceTransformerEmbedder) -> None:
    first = _embedder(tmp_path)
    [export] = _exports(tmp_path)
    export.write_bytes(b"not an onnx model")
    fixed = _embedder(tmp_path)
    assert fixed.query_runtime == "onnx"
    assert export.read_bytes() != b"not an onnx model"
    assert np.dot(fixed.embed([QUESTIONS[0]])[0], first.embed([QUESTIONS[0]])[0]) > 0.9999


def test_without_onnx_runtime_short_calls_stay_on_torch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails
    embedder = _embedder(tmp_path)
    assert embedder.query_runtime == "torch"
    assert _exports(tmp_path) == []
    assert len(embedder.embed([QUESTIONS[0]])[0]) == embedder.dimensions


def test_torch_can_be_chosen(tmp_path: Path) -> None:
    assert _embedder(tmp_path, "torch").query_runtime == "torch"
    assert _exports(tmp_path) == []


def test_questions_beside_an_ingest_batch_get_their_own_vectors(onnx: SentenceTransformerEmbedder) -> None:
    """Queries on other threads while a batch runs on torch: each answer is its question's vector."""
    expected = {q: np.asarray(onnx.embed([q])[0]) for q in QUESTIONS}
    batch = [f"document sentence {i} about the depot schedule and its staff" for i in range(400)]
    wrong: list[str] = []

    def ask() -> None:
        for _ in range(20):
            for q in QUESTIONS:
                if np.dot(onnx.embed([q])[0], expected[q]) < 0.9999:
                    wrong.append(q)

    askers = [threading.Thread(target=ask) for _ in range(3)]
    for t in askers:
        t.start()
    onnx.embed(batch)
    for t in askers:
        t.join()
    assert wrong == []


def test_an_export_whose_vectors_differ_is_made_again_then_left_for_torch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _embedder(tmp_path)
    [export] = _exports(tmp_path)
    stamp = export.stat().st_mtime_ns
    monkeypatch.setattr("graphmem.embed.onnx_query.MIN_AGREEMENT", 1.01)  # no export can agree now
    embedder = _embedder(tmp_path)
    assert embedder.query_runtime == "torch"
    assert export.stat().st_mtime_ns != stamp  # the reused file was exported once more before giving up
