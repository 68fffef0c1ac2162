"""Field checks shared by the record parsers; each error names the field (`documents[3].text`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.jsonvalue import METADATA_MAX_BYTES, METADATA_MAX_DEPTH, json_depth


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


def optional_metadata(raw: Mapping[str, Any], where: str) -> str | None:
    """`raw["metadata"]` as JSON text: a JSON object nesting at most METADATA_MAX_DEPTH levels and at most
    METADATA_MAX_BYTES long (UTF-8); None when absent or empty."""
    field = f"{where}.metadata"
    metadata = raw.get("metadata")
    if metadata is None:
        return None
    if not isinstance(metadata, Mapping):
        raise InvalidInput(field, "must be a JSON object")
    if not metadata:
        return None
    depth = json_depth(metadata, METADATA_MAX_DEPTH)
    if depth > METADATA_MAX_DEPTH:
        raise InvalidInput(field, f"nests more than {METADATA_MAX_DEPTH} levels of objects and lists")
    try:
        text = json.dumps(metadata, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(
            field, f"must hold only JSON values (text, finite numbers, true/false, null): {exc}"
        ) from None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > METADATA_MAX_BYTES:
        raise InvalidInput(field, f"is {size} bytes as JSON; the limit is {METADATA_MAX_BYTES}")
    return text


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
