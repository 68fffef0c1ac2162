"""The read scope a root resolves and every nested field inherits: space, as-of and known-at times.

"Now" is fixed once per scope, so every nested field of one request sees the same instant.
Default status filter: active only for a current read; any status for an explicit `asOf`, because a
version superseded today was the valid one back then (its `valid_to` bounds it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.model.nodes import STATUS_ACTIVE, STATUSES
from graphmem.timeutil import parse_time, utc_now

MAX_SPACE_CHARS = 200
ALL_SPACES = "*"
PATTERN_CHARS = "*?["


def check_space(space: str, field: str = "space") -> str:
    if not space or not space.strip():
        raise InvalidInput(field, "a space is required")
    if len(space) > MAX_SPACE_CHARS:
        raise InvalidInput(field, f"at most {MAX_SPACE_CHARS} characters")
    return space


def check_key_space(field: str, entry: str) -> str:
    """A key's space entry: a name, `*` (all spaces) or `prefix*` (names that extend the prefix).
    Any other wildcard use is refused, so no entry is stored that would silently match nothing."""
    check_space(entry, field)
    if entry == ALL_SPACES:
        return entry
    stem = entry[:-1] if entry.endswith("*") else entry
    odd = next((ch for ch in stem if ch in PATTERN_CHARS), None)
    if odd is not None:
        raise InvalidInput(
            field, f"{entry!r}: {odd!r} is not allowed; use a space name, '*' for all, or 'prefix*' (a trailing *)"
        )
    return entry


def key_space_matches(entry: str, space: str) -> bool:
    """Does a key's space entry cover `space`? `team-*` covers `team-a`, never `team-`, `team` or `teamx`."""
    if entry == ALL_SPACES:
        return True
    if entry.endswith("*"):
        prefix = entry[:-1]
        return len(space) > len(prefix) and space.startswith(prefix)
    return entry == space


@dataclass(frozen=True)
class ReadScope:
    space: str
    as_of: datetime
    known_at: datetime
    statuses: tuple[str, ...]
    explicit_as_of: bool = False

    @classmethod
    def resolve(
        cls,
        space: str,
        as_of: datetime | str | None = None,
        known_at: datetime | str | None = None,
        statuses: tuple[str, ...] | None = None,
    ) -> ReadScope:
        check_space(space)
        now = utc_now()
        when = parse_time("asOf", as_of, default=now)
        known = parse_time("knownAt", known_at, default=now)
        if statuses is None:
            statuses = STATUSES if as_of is not None else (STATUS_ACTIVE,)
        return cls(space, when, known, tuple(sorted(statuses)), explicit_as_of=as_of is not None)

    def params(self) -> dict[str, Any]:
        """The Cypher parameters every scoped query takes."""
        return {
            "space": self.space,
            "as_of": self.as_of,
            "known_at": self.known_at,
            "statuses": list(self.statuses),
        }
