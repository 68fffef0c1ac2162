"""Time values as graphmem stores them: timezone-aware UTC, with a far-future sentinel for "current"."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from graphmem.errors import InvalidInput

# "Still current" for valid_to / expired_at: a plain range comparison against it always passes.
FAR_FUTURE = datetime(9999, 12, 31, tzinfo=UTC)


def utc_now() -> datetime:
    return datetime.now(UTC)


def parse_time(field: str, value: Any, *, default: datetime | None = None) -> datetime:
    """An ISO-8601 string or datetime as aware UTC. Naive values are taken as UTC.

    Raises `InvalidInput` naming `field` for anything else (bad format, NaN, out of range, or at or past
    the far-future sentinel 9999-12-31, which reads back as "still open").
    """
    if value is None or value == "":
        if default is None:
            raise InvalidInput(field, "a date-time is required (ISO 8601, e.g. 2024-03-05T10:00:00Z)")
        return default
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            raise InvalidInput(
                field, f"{value[:40]!r} is not an ISO 8601 date-time (e.g. 2024-03-05T10:00:00Z)"
            ) from None
    else:
        raise InvalidInput(field, f"expected an ISO 8601 date-time string, got {type(value).__name__}")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        parsed = parsed.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InvalidInput(field, f"{value!s:.40} is out of range (years 1 to 9999)") from None
    if parsed >= FAR_FUTURE:
        raise InvalidInput(field, f"{value!s:.40} is out of range: dates must be before {FAR_FUTURE.date()}")
    return parsed


def iso(value: datetime | None) -> str | None:
    """ISO 8601 text of a stored time, or None for the far-future sentinel and for missing values."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    if value.year >= FAR_FUTURE.year:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
