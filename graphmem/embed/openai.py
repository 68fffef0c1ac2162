"""Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from graphmem.errors import ConfigError

WORD_PIECE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


class OpenAIEmbedder:
    def __init__(self, model: str, base_url: str | None, api_key: str | None, batch_size: int = 64) -> None:
        from openai import OpenAI

        if not base_url:
            raise ConfigError("the openai embedder needs GRAPHMEM_EMBED_BASE_URL (or GRAPHMEM_LLM_BASE_URL)")
        self._client = OpenAI(base_url=base_url, api_key=api_key or "unused", max_retries=2, timeout=60)
        self.model = model
        self.name = f"openai:{model}"
        self.batch_size = batch_size
        self.dimensions = len(self.embed(["dimension probe"])[0])

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            response = self._client.embeddings.create(model=self.model, input=batch)
            for item in sorted(response.data, key=lambda d: d.index):
                norm = math.sqrt(sum(v * v for v in item.embedding)) or 1.0
                out.append([v / norm for v in item.embedding])
        return out

    def count_tokens(self, text: str) -> int:
        # No local tokenizer for a remote model: words and punctuation, a close upper bound for BPE on prose.
        return len(WORD_PIECE.findall(text))
