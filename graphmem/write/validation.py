"""Field checks shared by the record parsers; each error names the field (`documents[3].text`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graphmem.errors import InvalidInput


def required_text(raw: Mapping[str, Any], name: str, where: str) -> str:
    value = raw.get(name)
    if value is None:
        raise InvalidInput(f"{where}.{name}", "is required")
    if not isinstance(value, str):
        raise InvalidInput(f"{where}.{name}", f"must be text, got {type(value).__name__}")
    if not value.strip():
        raise InvalidInput(f"{where}.{name}", "must not be empty")
    return value


def optional_text(raw: Mapping[str, Any], name: str, where: str) -> str | None:
    value = raw.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{where}.{name}", f"must be text, got {type(value).__name__}")
    return value.strip() or None


def optional_number(raw: Mapping[str, Any], name: str, where: str) -> float | None:
    value = raw.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise InvalidInput(f"{where}.{name}", "must be a number")
    return float(value)


class UnreadableRecord:
    """Stands in for an input line that could not be read as JSON, so it is rejected by name like any
    other bad record (`documents[7]: line 8 is not valid JSON ...`)."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"UnreadableRecord({self.message!r})"


def reject_unreadable(raw: Any, where: str) -> None:
    if isinstance(raw, UnreadableRecord):
        raise InvalidInput(where, raw.message)
