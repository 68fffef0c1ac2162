"""`changes(space, since, until)`: what was added, superseded or merged in a valid-time window, by whom."""

from __future__ import annotations

from datetime import datetime

from graphmem.db import Store
from graphmem.errors import InvalidInput
from graphmem.evolution.records import Change, native_time
from graphmem.timeutil import parse_time

DEFAULT_LIMIT = 1000
MAX_LIMIT = 10_000


def changes(
    store: Store, space: str, since: datetime | str, until: datetime | str, limit: int = DEFAULT_LIMIT
) -> list[Change]:
    """Changes with `since <= at < until`, oldest first (at most `limit`).

    `at` is valid time: a supersession's `at`, a merge's `at`, or an added version's `valid_from`.
    """
    start, end = parse_time("since", since), parse_time("until", until)
    if end <= start:
        raise InvalidInput("until", "must be after since")
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be between 1 and {MAX_LIMIT}")
    rows = store.read("audit/changes_between", space=space, since=start, until=end, limit=limit)
    return [
        Change(
            change=row["change"],
            at=native_time(row["at"]),
            recorded_at=native_time(row["recorded_at"]),
            id=row["id"],
            label=row["label"],
            text=row["text"],
            by=row["by"],
            other_id=row["other_id"],
            kind=row["kind"],
            reason=row["reason"],
        )
        for row in rows
    ]
