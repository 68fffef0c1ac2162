"""The read scope a root resolves and every nested field inherits: space, as-of and known-at times.

"Now" is fixed once per scope, so every nested field of one request sees the same instant.
Validity is `graphmem.read.asof`'s one definition: a current read takes active versions and versions whose
closing record is dated later (`valid_to` bounds them); an explicit `asOf` any status; a past `knownAt` the
records as they stood then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.read.asof import default_statuses, is_known_now, validity_params
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
    known_now: bool = True

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
            statuses = default_statuses(current=as_of is None)
        return cls(
            space,
            when,
            known,
            tuple(sorted(statuses)),
            explicit_as_of=as_of is not None,
            known_now=is_known_now(known, now),
        )

    def params(self) -> dict[str, Any]:
        """The Cypher parameters every scoped query takes."""
        return {"space": self.space, **validity_params(self.as_of, self.known_at, self.known_now, self.statuses)}
