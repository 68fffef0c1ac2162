"""`AsOf`: the bi-temporal scope of a read — valid time (`as_of`) and record time (`known_at`).

Every leg passes `AsOf.params()` to its Cypher, which filters inside the query:
`valid_from <= $as_of < valid_to AND recorded_at <= $known_at < expired_at AND status IN $statuses`.
The default is "now, active only". For a past `as_of` a 'superseded' version whose valid interval holds
`as_of` *was* the valid one then, so the interval decides, not the status; 'merged' sources never come
back for a current question (their merged node does); for a past one the interval decides for them too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.model.nodes import STATUS_ACTIVE, STATUS_MERGED, STATUS_SUPERSEDED
from graphmem.timeutil import parse_time, utc_now

# An as_of this close to now is "a current question": only active versions answer it.
_CURRENT_TOLERANCE = timedelta(seconds=5)


@dataclass(frozen=True)
class AsOf:
    """When a question is asked about (`as_of`) and what the service knew (`known_at`)."""

    as_of: datetime
    known_at: datetime
    current: bool

    @classmethod
    def resolve(cls, as_of: Any = None, known_at: Any = None) -> AsOf:
        """Parse caller values (ISO text or datetime; None = now). Raises InvalidInput naming the field."""
        now = utc_now()
        as_of_t = parse_time("as_of", as_of, default=now)
        known_t = parse_time("known_at", known_at, default=now)
        if as_of_t > now + _CURRENT_TOLERANCE and as_of is not None:
            # The future holds nothing yet; answering it as "now" is what a caller means.
            as_of_t = now
        if known_t > now + _CURRENT_TOLERANCE:
            raise InvalidInput("known_at", "cannot be in the future (the service cannot know it yet)")
        current = as_of is None or as_of_t >= now - _CURRENT_TOLERANCE
        return cls(as_of=as_of_t, known_at=known_t, current=current)

    @property
    def statuses(self) -> list[str]:
        """Statuses a read may return; the valid interval then narrows them to the version valid at as_of."""
        if self.current:
            return [STATUS_ACTIVE]
        return [STATUS_ACTIVE, STATUS_SUPERSEDED, STATUS_MERGED]

    def params(self) -> dict[str, Any]:
        """Cypher parameters every read query filters on."""
        return {"as_of": self.as_of, "known_at": self.known_at, "statuses": self.statuses}
