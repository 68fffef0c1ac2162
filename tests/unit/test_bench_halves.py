"""Benchmark selections (two disjoint halves, named scopes) and replaying kept spaces without ingest."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.bench.quality.datasets import Benchmark, MetricPlan, Question, Scope, half_benchmark, select_scopes
from graphmem.bench.quality.runner import run_benchmark
from graphmem.bench.quality.scoring import Ranking
from graphmem.bench.quality.system import Depth
from graphmem.errors import InvalidInput


def _bench() -> Benchmark:
    types = ["a", "a", "b", "a", "b", "b", "a"]
    scopes = [Scope(f"s{i}", [Question(f"q{i}", "text", t, gold_sessions=(f"g{i}",))]) for i, t in enumerate(types)]
    return Benchmark("lme", scopes, MetricPlan(unit_ks=(5,), session_ks=(1, 5), primary="session"))


def test_halves_alternate_within_each_type_and_are_disjoint() -> None:
    a, b = half_benchmark(_bench(), "a"), half_benchmark(_bench(), "b")
    assert [q.id for q in a.questions] == ["q0", "q2", "q3", "q5"]  # type a: q0 q3; type b: q2 q5
    assert [q.id for q in b.questions] == ["q1", "q4", "q6"]
    assert a.notes["questions_in_other_half"] == 3
    with pytest.raises(InvalidInput):
        half_benchmark(_bench(), "c")


def test_scopes_are_selected_by_name() -> None:
    assert [s.name for s in select_scopes(_bench(), ["s3", "s1"]).scopes] == ["s1", "s3"]
    with pytest.raises(InvalidInput):
        select_scopes(_bench(), ["nope"])


class _System:
    def __init__(self, kept: set[str]) -> None:
        self.kept, self.ingested, self.dropped = kept, [], []

    def attach(self, space: str, scope: Scope) -> bool:
        return space in self.kept

    def ingest(self, space: str, scope: Scope) -> dict[str, Any]:
        self.ingested.append(space)
        return {}

    def rank(self, space: str, question: Question, variant: str, depth: Depth) -> Ranking:
        return Ranking(units=[], sessions=list(question.gold_sessions))

    def drop(self, space: str) -> int:
        self.dropped.append(space)
        return 0


def test_reuse_ranks_in_kept_spaces_and_ingests_only_missing_ones() -> None:
    bench = select_scopes(_bench(), ["s0", "s1"])
    system = _System(kept={"bench-lme-r1-0"})
    outcome = run_benchmark(bench, system, ["hybrid"], run_id="r1", count_tokens=len, reuse=True)
    assert system.ingested == ["bench-lme-r1-1"] and system.dropped == []
    assert outcome.ingest["reused_scopes"] == 1
    assert outcome.variants["hybrid"]["recall_any@1"] == 1.0
    assert outcome.spaces == ["bench-lme-r1-0", "bench-lme-r1-1"]
