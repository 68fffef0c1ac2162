"""Run one benchmark: each scope into a fresh space, every variant on the same ingested data, scored.

Spaces are named `bench-<dataset>-<run id>-<n>` so concurrent runs on a shared server never mix, and are
dropped when their questions are answered unless `keep` is set. With `reuse`, a space an earlier run of
the same run id kept is ranked as it is (no ingest), so ranking changes replay on the same data.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.bench.quality.datasets.base import Benchmark, Question, Scope
from graphmem.bench.quality.scoring import aggregate, score_question
from graphmem.bench.quality.system import Depth, RetrievalSystem

TokenCounter = Callable[[str], int]
Log = Callable[[str], None]


@dataclass
class RunOutcome:
    variants: dict[str, dict[str, Any]]
    ingest: dict[str, Any]
    query_seconds: dict[str, float]
    spaces: list[str] = field(default_factory=list)


def space_name(dataset: str, run_id: str, index: int) -> str:
    return f"bench-{dataset}-{run_id}-{index}"


def depth_for(benchmark: Benchmark) -> Depth:
    """Deep enough for every cut-off the plan scores, and for nDCG@10 and a meaningful MRR."""
    plan = benchmark.plan
    units = max((*plan.unit_ks, 10))
    sessions = max((*plan.session_ks, 10)) if plan.session_ks else 0
    return Depth(units=max(units, 20) if plan.versioned else units, sessions=sessions)


class _UnitTexts:
    """Token prices of units and sessions, counted once each."""

    def __init__(self, count_tokens: TokenCounter) -> None:
        self._count = count_tokens
        self._texts: dict[str, str] = {}
        self._tokens: dict[str, int] = {}

    def add_scope(self, scope: Scope) -> None:
        for doc in scope.documents:
            self._texts[doc.key] = doc.text
        for session in scope.sessions:
            self._texts[session.key] = session.text
            for turn in session.turns:
                self._texts[turn.key] = turn.text

    def tokens(self, key: str) -> int:
        if key not in self._tokens:
            self._tokens[key] = self._count(self._texts.get(key, ""))
        return self._tokens[key]


def event_dates(scope: Scope) -> dict[str, datetime | None]:
    """Each document's date, for future-leak checks. An exact repeat of an earlier document's text is the
    one unit graphmem stored (writes skip exact repeats), so it carries the date of the first occurrence:
    returning that unit for an early as-of date is no leak, whatever date the repeat had."""
    first: dict[str, datetime | None] = {}
    dates: dict[str, datetime | None] = {}
    for doc in scope.documents:
        when = datetime.fromisoformat(doc.event_at) if doc.event_at else None
        dates[doc.key] = first.setdefault(doc.text, when)
    return dates


def run_benchmark(
    benchmark: Benchmark,
    system: RetrievalSystem,
    variants: Sequence[str],
    *,
    run_id: str,
    count_tokens: TokenCounter,
    keep: bool = False,
    reuse: bool = False,
    log: Log = lambda _: None,
) -> RunOutcome:
    depth = depth_for(benchmark)
    texts = _UnitTexts(count_tokens)
    rows: dict[str, list[tuple[Question, dict[str, float]]]] = {v: [] for v in variants}
    query_seconds = dict.fromkeys(variants, 0.0)
    ingest: dict[str, Any] = {"scopes": 0, "units": 0, "seconds": 0.0}
    spaces: list[str] = []
    for index, scope in enumerate(benchmark.scopes):
        space = space_name(benchmark.name, run_id, index)
        spaces.append(space)
        scope_started = time.perf_counter()
        reused = reuse and system.attach(space, scope)
        summary = {} if reused else system.ingest(space, scope)
        ingest_s = time.perf_counter() - scope_started
        ingest["seconds"] += ingest_s
        ingest["scopes"] += 1
        ingest["units"] += scope.unit_count
        ingest["reused_scopes"] = ingest.get("reused_scopes", 0) + int(reused)
        for key, value in summary.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                ingest[key] = ingest.get(key, 0) + value
        texts.add_scope(scope)
        dates = event_dates(scope)
        try:
            for question in scope.questions:
                for variant in variants:
                    started = time.perf_counter()
                    ranking = system.rank(space, question, variant, depth)
                    query_seconds[variant] += time.perf_counter() - started
                    scores = score_question(question, ranking, benchmark.plan, tokens=texts.tokens, event_at=dates)
                    rows[variant].append((question, scores))
        finally:
            if not (keep or reuse):
                system.drop(space)
        done = sum(len(s.questions) for s in benchmark.scopes[: index + 1])
        log(
            f"[{index + 1}/{len(benchmark.scopes)}] {space}: {scope.unit_count} units, "
            f"{len(scope.questions)} questions ({done} done), {'reused' if reused else 'ingest'} {ingest_s:.1f}s, "
            f"total {time.perf_counter() - scope_started:.1f}s"
        )
    ingest["seconds"] = round(ingest["seconds"], 2)
    n_questions = max(1, len(benchmark.questions))
    results = {v: aggregate(rows[v]) for v in variants}
    for variant in variants:
        results[variant]["query_ms_mean"] = round(1000 * query_seconds[variant] / n_questions, 1)
    return RunOutcome(
        variants=results,
        ingest=ingest,
        query_seconds={v: round(s, 2) for v, s in query_seconds.items()},
        spaces=spaces if keep or reuse else [],
    )
