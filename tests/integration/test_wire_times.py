"""Time parameters packed once per value (`graphmem.db.wire_times`) reach Neo4j as the same values the driver
would have sent: equal instants, the same offset, to the microsecond. (Named zones are left out: the driver's
own dehydration of a `ZoneInfo` datetime crashes the interpreter in neo4j 6.1.0, with or without the cache.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from graphmem.db.wire_times import wire_params

pytestmark = pytest.mark.integration

TIMES = [
    datetime(2026, 12, 7, 11, 40, 0, 123456, tzinfo=UTC),
    datetime(1, 1, 1, tzinfo=UTC),  # the read path's "open always"
    datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # the far-future sentinel's range
    datetime(2024, 3, 1, 8, 30, tzinfo=timezone(timedelta(hours=5, minutes=30))),
    datetime(2024, 10, 27, 2, 30, tzinfo=timezone(timedelta(hours=-3)), fold=1),
    datetime(2024, 5, 1, 12, 0),  # no zone
]

SAME = "RETURN $packed = $plain AS same, toString($packed) AS packed, toString($plain) AS plain"


@pytest.mark.parametrize("value", TIMES, ids=str)
def test_a_packed_time_parameter_is_the_value_the_driver_sends(store, value):
    packed = wire_params({"packed": value}, store.server.bolt)["packed"]
    for _ in range(2):  # the second time from the cache
        with store.driver.session(database=store.database) as session:
            row = session.run(SAME, packed=packed, plain=value).single()
        assert row is not None
        assert row["same"] is True
        assert row["packed"] == row["plain"]


def test_equal_instants_at_two_offsets_keep_their_own_offset(store):
    utc = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
    plus_two = utc.astimezone(timezone(timedelta(hours=2)))
    assert utc == plus_two
    first = store.run_read_text("RETURN toString($t) AS t", t=utc)[0]["t"]
    second = store.run_read_text("RETURN toString($t) AS t", t=plus_two)[0]["t"]
    assert first == "2024-06-01T12:00:00Z"
    assert second == "2024-06-01T14:00:00+02:00"


def test_reads_pass_other_values_as_they_are(store):
    row = store.run_read_text("RETURN $n AS n, $s AS s, $xs AS xs", n=3, s="x", xs=[1, 2])[0]
    assert row == {"n": 3, "s": "x", "xs": [1, 2]}
