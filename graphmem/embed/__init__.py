"""Embedders: sentence-transformers (default), OpenAI-compatible endpoints, hashing (tests only)."""

from __future__ import annotations

from functools import lru_cache

from graphmem.config import Settings, get_settings
from graphmem.embed.base import Embedder
from graphmem.errors import ConfigError


def make_embedder(settings: Settings) -> Embedder:
    """The embedder GRAPHMEM_EMBEDDER names: `sentence-transformers[:MODEL]`, `openai:MODEL`, `hashing[:DIM]`."""
    kind, _, arg = settings.embedder.partition(":")
    if kind == "sentence-transformers":
        from graphmem.embed.sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(
            arg or None,
            batch_size=settings.embed_batch_size,
            threads=settings.embed_threads,
            batch_threads=settings.embed_batch_threads,
            query_runtime=settings.embed_query_runtime,
            cache_dir=settings.cache_dir.expanduser() / "onnx",
        )
    if kind == "openai":
        from graphmem.embed.openai import OpenAIEmbedder

        if not arg:
            raise ConfigError("GRAPHMEM_EMBEDDER=openai:MODEL needs a model name")
        return OpenAIEmbedder(
            arg,
            settings.embed_base_url or settings.llm_base_url,
            settings.embed_api_key or settings.llm_api_key,
            batch_size=settings.embed_batch_size,
        )
    if kind == "hashing":
        from graphmem.embed.hashing import HashingEmbedder

        try:
            return HashingEmbedder(int(arg) if arg else 64)
        except ValueError:
            raise ConfigError(f"GRAPHMEM_EMBEDDER={settings.embedder!r}: hashing:DIM needs an integer") from None
    raise ConfigError(
        f"GRAPHMEM_EMBEDDER={settings.embedder!r} is not one of "
        "sentence-transformers[:MODEL], openai:MODEL, hashing[:DIM]"
    )


@lru_cache(maxsize=1)
def default_embedder() -> Embedder:
    """The process-wide embedder from settings, loaded once."""
    return make_embedder(get_settings())


__all__ = ["Embedder", "default_embedder", "make_embedder"]
