"""`AsOf`: the bi-temporal scope of a read — valid time (`as_of`) and record time (`known_at`).

One definition of validity, used by every read. A node answers at (as_of A, known_at K) when
`valid_from <= A`, `recorded_at <= K < expired_at`, and no SUPERSEDES / MERGED_FROM record into it with
`recorded_at <= K` has `at <= A`; a fact or procedure resting on evidence holds only while some of its
evidence units does. Each node caches that answer for K = now as `valid_to` (earliest closing `at`) and
`status` (`cypher/write/revalidate.cypher` keeps the cache), so a read known now filters on the cache inside
the indexes; a read known at a past K relaxes the cache filter (`open_after`) and checks the records
(`known_now` false). `VALIDITY_UNIT` / `VALIDITY_DERIVED` are the Cypher text of that record check, and
every read query carries one of them verbatim (tests/unit/test_validity_predicate.py checks it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.model.nodes import STATUS_ACTIVE, STATUS_SUPERSEDED, STATUSES
from graphmem.timeutil import parse_time, utc_now

# An as_of this close to now is "a current question".
_CURRENT_TOLERANCE = timedelta(seconds=5)
# The cache filter `valid_to > $open_after` passes every node when the records decide (a past known_at).
_OPEN_ALWAYS = datetime(1, 1, 1, tzinfo=UTC)
# A current read: a version closed by a record is still current until the record's `at` (a future date).
CURRENT_STATUSES = (STATUS_ACTIVE, STATUS_SUPERSEDED)

# Cypher: a versioned node `{v}` is not closed by a record known at $known_at (a no-op when $known_now).
VALIDITY_UNIT = (
    "($known_now OR NOT EXISTS {{ MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->({v})"
    " WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of }})"
)
# Cypher: as VALIDITY_UNIT, and a fact or procedure with evidence needs one evidence unit valid too.
VALIDITY_DERIVED = (
    "($known_now OR (NOT EXISTS {{ MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->({v})"
    " WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of }}"
    " AND (NOT EXISTS {{ ({v})-[:EVIDENCED_BY]->() }} OR EXISTS {{ MATCH ({v})-[:EVIDENCED_BY]->(support)"
    " WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at"
    " AND NOT EXISTS {{ MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support)"
    " WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of }} }})))"
)


def validity_unit(var: str) -> str:
    """The record check for evidence units (Episodic) bound to `var`."""
    return VALIDITY_UNIT.format(v=var)


def validity_derived(var: str) -> str:
    """The record check for facts and procedures bound to `var`."""
    return VALIDITY_DERIVED.format(v=var)


def validity_params(
    as_of: datetime, known_at: datetime, known_now: bool, statuses: tuple[str, ...] | list[str]
) -> dict[str, Any]:
    """Cypher parameters of the validity filter (see the module docstring)."""
    return {
        "as_of": as_of,
        "known_at": known_at,
        "statuses": list(statuses) if known_now else list(STATUSES),
        "known_now": known_now,
        "open_after": as_of if known_now else _OPEN_ALWAYS,
    }


def is_known_now(known_at: datetime, now: datetime) -> bool:
    """Whether the cache answers: a known_at even a moment before now may predate a record, so only now does."""
    return known_at >= now


def default_statuses(current: bool) -> tuple[str, ...]:
    """Statuses a read may return before the interval decides: merged sources never answer a current question."""
    return CURRENT_STATUSES if current else STATUSES


@dataclass(frozen=True)
class AsOf:
    """When a question is asked about (`as_of`) and what the service knew (`known_at`)."""

    as_of: datetime
    known_at: datetime
    current: bool
    known_now: bool = True

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
        return cls(as_of=as_of_t, known_at=known_t, current=current, known_now=is_known_now(known_t, now))

    def from_records(self) -> AsOf:
        """The same scope decided by the records instead of the cache (equal answers; used to check the cache)."""
        return AsOf(self.as_of, self.known_at, self.current, known_now=False)

    @property
    def statuses(self) -> list[str]:
        """Statuses a read may return; the valid interval then narrows them to the version valid at as_of."""
        return list(default_statuses(self.current)) if self.known_now else list(STATUSES)

    def params(self) -> dict[str, Any]:
        """Cypher parameters every read query filters on."""
        return validity_params(self.as_of, self.known_at, self.known_now, default_statuses(self.current))
