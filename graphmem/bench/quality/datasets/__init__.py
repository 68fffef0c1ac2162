"""Benchmark loaders: `load_benchmark(name, path, limit)` for every dataset `bench quality` reads."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphmem.bench.quality.datasets import locomo, longmemeval, paragraphs, versioned
from graphmem.bench.quality.datasets.base import (
    Benchmark,
    Document,
    MetricPlan,
    Question,
    Scope,
    Session,
    Turn,
)
from graphmem.errors import InvalidInput

# Loaders that can skip the file's first questions (`--offset`): the pooled paragraph sets.
OFFSET_LOADERS: dict[str, Callable[[Path, int | None, int], Benchmark]] = {
    "hotpotqa": paragraphs.load_hotpotqa,
    "musique": paragraphs.load_musique,
}
LOADERS: dict[str, Callable[[Path, int | None], Benchmark]] = {
    "longmemeval": longmemeval.load,
    "locomo": locomo.load,
    "hotpotqa": paragraphs.load_hotpotqa,
    "musique": paragraphs.load_musique,
    "versioned": versioned.load,
}
DATASETS = tuple(LOADERS)


def load_benchmark(name: str, path: Path, limit: int | None = None, offset: int = 0) -> Benchmark:
    """Load dataset `name` from `path` (the questions after the first `offset`, where the dataset allows it);
    InvalidInput naming the flag on an unknown name, a bad file or an offset the dataset cannot take."""
    if name not in LOADERS:
        raise InvalidInput("--dataset", f"{name!r} is not one of {', '.join(DATASETS)}")
    if not path.is_file():
        raise InvalidInput("--data", f"{path} is not a readable file")
    if limit is not None and limit < 1:
        raise InvalidInput("--limit", "must be at least 1")
    if offset:
        if offset < 0 or name not in OFFSET_LOADERS:
            raise InvalidInput("--offset", f"a non-negative count, for {', '.join(OFFSET_LOADERS)} only")
        return OFFSET_LOADERS[name](path, limit, offset)
    return LOADERS[name](path, limit)


def sample_benchmark(benchmark: Benchmark, n: int) -> Benchmark:
    """Keep `n` questions spread evenly through the file (every len/n-th), so a file ordered by question
    type keeps every type; scopes left without questions are dropped, pooled corpora stay whole."""
    if n < 1:
        raise InvalidInput("--sample", "must be at least 1")
    questions = benchmark.questions
    if n >= len(questions):
        return benchmark
    chosen = {questions[(i * len(questions)) // n].id for i in range(n)}
    return _keep_questions(benchmark, chosen, "questions_sampled_out")


def half_benchmark(benchmark: Benchmark, half: str) -> Benchmark:
    """One of two disjoint halves, fixed before any result is seen: within each question type, in file
    order, questions alternate between half 'a' and half 'b'; scopes left without questions are dropped."""
    if half not in ("a", "b"):
        raise InvalidInput("--half", "must be a or b")
    seen: dict[str, int] = {}
    chosen: set[str] = set()
    for question in benchmark.questions:
        position = seen[question.type] = seen.get(question.type, -1) + 1
        if (position % 2 == 0) == (half == "a"):
            chosen.add(question.id)
    return _keep_questions(benchmark, chosen, "questions_in_other_half")


def select_scopes(benchmark: Benchmark, names: list[str]) -> Benchmark:
    """Only the scopes named (a LongMemEval question id, a LoCoMo conversation id), in file order."""
    known = {s.name for s in benchmark.scopes}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InvalidInput("--scopes", f"{', '.join(unknown)} not among the file's scopes")
    chosen = {q.id for s in benchmark.scopes if s.name in names for q in s.questions}
    return _keep_questions(benchmark, chosen, "questions_in_other_scopes")


def _keep_questions(benchmark: Benchmark, chosen: set[str], note: str) -> Benchmark:
    scopes = []
    for scope in benchmark.scopes:
        kept = [q for q in scope.questions if q.id in chosen]
        if kept:
            scopes.append(Scope(scope.name, kept, scope.documents, scope.sessions))
    notes = benchmark.notes.copy()
    notes[note] = len(benchmark.questions) - len(chosen)
    return Benchmark(benchmark.name, scopes, benchmark.plan, notes)


__all__ = [
    "DATASETS",
    "Benchmark",
    "Document",
    "MetricPlan",
    "Question",
    "Scope",
    "Session",
    "Turn",
    "half_benchmark",
    "load_benchmark",
    "sample_benchmark",
    "select_scopes",
]
