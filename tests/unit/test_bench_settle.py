"""The perf bench starts timing once Neo4j has gone quiet after a load, or says it did not."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.bench.settle import SAMPLE_SECONDS, wait_until_quiet
from graphmem.db.store import Store


class CpuStore(Store):
    """No server: reports the CPU seconds the server would have used, sample by sample."""

    def __init__(self, cpu_per_second: list[float], jmx: bool = True) -> None:
        self.cpu_per_second = cpu_per_second
        self.jmx = jmx
        self.used = 0.0
        self.samples = 0

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        assert name == "bench/server_cpu_time"
        if not self.jmx:
            raise RuntimeError("There is no procedure with the name `dbms.queryJmx` registered")
        if self.samples:
            rate = self.cpu_per_second[min(self.samples - 1, len(self.cpu_per_second) - 1)]
            self.used += rate * SAMPLE_SECONDS
        self.samples += 1
        return [{"cpu_ns": int(self.used * 1e9), "cores": 2}]


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_timing_starts_once_the_server_stays_quiet() -> None:
    clock = FakeClock()
    store = CpuStore([1.8, 1.5, 0.05, 0.9, 0.05, 0.02, 0.01, 0.0])  # merging, a lull, merging, then idle
    settled = wait_until_quiet(store, 600, clock=clock, sleep=clock.sleep)
    assert settled.quiet and settled.seconds == 7 * SAMPLE_SECONDS  # the lull alone did not count
    assert settled.as_dict() == {"settle_seconds": 14.0, "settled": True, "server_cores_at_start": 0.01}


def test_a_server_that_stays_busy_is_timed_after_the_cap_and_reported_as_not_quiet() -> None:
    clock = FakeClock()
    settled = wait_until_quiet(CpuStore([1.2]), 30, clock=clock, sleep=clock.sleep)
    assert not settled.quiet and 30 <= settled.seconds < 30 + SAMPLE_SECONDS
    assert settled.last_cores == pytest.approx(1.2)


def test_no_wait_when_asked_for_none_or_when_the_server_does_not_report_its_cpu() -> None:
    clock = FakeClock()
    for store, cap in ((CpuStore([1.0]), 0), (CpuStore([1.0], jmx=False), 600)):
        settled = wait_until_quiet(store, cap, clock=clock, sleep=clock.sleep)
        assert settled.as_dict() == {"settle_seconds": 0.0, "settled": False, "server_cores_at_start": None}
    assert clock.now == 0
