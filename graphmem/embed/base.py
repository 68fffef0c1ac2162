"""The `Embedder` contract: batch text → unit-length vectors, plus a local token counter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of `dimensions` floats, in order, in batches."""

    name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    def count_tokens(self, text: str) -> int:
        """Tokens `text` costs, by a local tokenizer (never a network download)."""
        ...
