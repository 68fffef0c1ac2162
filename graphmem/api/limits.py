"""Request limits: query depth, tokens and aliases (validation rules), the largest page, text and batch
sizes. All come from settings (GRAPHMEM_API_MAX_*); going over one is a clear, field-named error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from strawberry.extensions import MaxAliasesLimiter, MaxTokensLimiter, QueryDepthLimiter

from graphmem.config import Settings
from graphmem.errors import InvalidInput

DEFAULT_FIRST = 20


def validation_extensions(settings: Settings) -> list[Any]:
    """Factories of strawberry extensions that refuse a document before it runs."""
    return [
        lambda: MaxTokensLimiter(max_token_count=settings.api_max_tokens),
        lambda: QueryDepthLimiter(max_depth=settings.api_max_depth),
        lambda: MaxAliasesLimiter(max_alias_count=settings.api_max_aliases),
    ]


def check_first(settings: Settings, first: int | None, field: str = "first") -> int:
    """A page size in 1..GRAPHMEM_API_MAX_FIRST (default 20)."""
    if first is None:
        return min(DEFAULT_FIRST, settings.api_max_first)
    if first < 1 or first > settings.api_max_first:
        raise InvalidInput(field, f"must be between 1 and {settings.api_max_first} (got {first})")
    return first


def check_text(settings: Settings, field: str, text: str | None, *, required: bool = True) -> str | None:
    """A non-empty text no longer than GRAPHMEM_API_MAX_TEXT_CHARS."""
    if text is None or not text.strip():
        if required:
            raise InvalidInput(field, "must not be empty")
        return text
    if len(text) > settings.api_max_text_chars:
        raise InvalidInput(field, f"is {len(text)} characters; the limit is {settings.api_max_text_chars}")
    return text


def check_batch(settings: Settings, field: str, items: Sequence[Any]) -> None:
    """A non-empty batch no larger than GRAPHMEM_API_MAX_BATCH."""
    if not items:
        raise InvalidInput(field, "must not be empty")
    if len(items) > settings.api_max_batch:
        raise InvalidInput(field, f"has {len(items)} items; the limit is {settings.api_max_batch}")
