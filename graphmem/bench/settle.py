"""Waiting for Neo4j to go quiet after a bulk load, before anything is timed.

Right after writing a million nodes the server keeps merging full-text and vector index segments for
minutes; queries timed then pay for that work (at 1M facts a recall cost Neo4j 119 ms of CPU right after
the load and about 55 ms once it was idle). The perf bench samples the server's own CPU time (JMX, so a
remote server works as well as the embedded one) and starts timing once it stays under a small share of a
core, or after a cap, and reports how long it waited and whether the server went quiet.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from graphmem.db import Store

QUIET_CORES = 0.15  # server CPU per wall-clock second below which it counts as idle
QUIET_SAMPLES = 3  # consecutive idle samples needed
SAMPLE_SECONDS = 2.0


@dataclass(frozen=True)
class Settled:
    seconds: float  # how long the wait took
    quiet: bool  # False when the cap ran out first, or the server does not report its CPU time
    last_cores: float | None  # server CPU per second over the last sample

    def as_dict(self) -> dict[str, object]:
        cores = None if self.last_cores is None else round(self.last_cores, 3)
        return {"settle_seconds": round(self.seconds, 1), "settled": self.quiet, "server_cores_at_start": cores}


def server_cpu_seconds(store: Store) -> float | None:
    """CPU seconds the server process has used, or None where it does not say (no JMX procedure)."""
    try:
        rows = store.read("bench/server_cpu_time")
    except Exception:  # a server without dbms.queryJmx: the bench times without waiting, and says so
        return None
    value = rows[0]["cpu_ns"] if rows else None
    return None if value is None else float(value) / 1e9


def wait_until_quiet(
    store: Store,
    max_seconds: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Settled:
    """Sample the server's CPU time every SAMPLE_SECONDS until it used under QUIET_CORES of a core in
    QUIET_SAMPLES samples running, or `max_seconds` have passed (0: do not wait)."""
    started = clock()
    previous = server_cpu_seconds(store) if max_seconds > 0 else None
    if previous is None:
        return Settled(0.0, False, None)
    previous_at, quiet, cores = started, 0, None
    while clock() - started < max_seconds:
        sleep(SAMPLE_SECONDS)
        now, used = clock(), server_cpu_seconds(store)
        if used is None:
            return Settled(now - started, False, cores)
        cores = (used - previous) / max(now - previous_at, 1e-6)
        previous, previous_at = used, now
        quiet = quiet + 1 if cores < QUIET_CORES else 0
        if quiet >= QUIET_SAMPLES:
            return Settled(now - started, True, cores)
    return Settled(clock() - started, False, cores)
