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


def check_space(space: str, field: str = "space") -> str:
    if not space or not space.strip():
        raise InvalidInput(field, "a space is required")
    if len(space) > MAX_SPACE_CHARS:
        raise InvalidInput(field, f"at most {MAX_SPACE_CHARS} characters")
    return space


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
