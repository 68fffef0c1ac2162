"""Versioned documents (INTERFACES.md): one JSONL file of `document` and `question` lines, one scope per
`space`. Reads OrgMemBench's `orgmem_dev.jsonl` as is; question types are reported as they come.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from graphmem.bench.quality.datasets.base import Benchmark, Document, MetricPlan, Question, Scope
from graphmem.bench.quality.datasets.paragraphs import _read_jsonl
from graphmem.errors import InvalidInput
from graphmem.timeutil import parse_time

PLAN = MetricPlan(unit_ks=(1, 5, 10, 20), versioned=True)


def _iso(field: str, value: object) -> str | None:
    if value in (None, ""):
        return None
    return parse_time(field, value).isoformat().replace("+00:00", "Z")


def load(path: Path, limit: int | None = None) -> Benchmark:
    documents: dict[str, list[Document]] = {}
    questions: dict[str, list[Question]] = {}
    notes: Counter[str] = Counter()
    taken = 0
    for row in _read_jsonl(path):
        kind = row.get("kind")
        space = str(row.get("space") or "default")
        if kind == "document":
            if not str(row.get("text") or "").strip():
                notes["empty_documents_skipped"] += 1
                continue
            documents.setdefault(space, []).append(
                Document(
                    key=str(row["id"]),
                    text=str(row["text"]),
                    author=row.get("author"),
                    event_at=_iso("event_at", row.get("event_at")),
                    source=row.get("source"),
                )
            )
        elif kind == "question":
            if limit is not None and taken >= limit:
                continue
            gold = tuple(str(g) for g in row.get("gold") or [])
            if not gold:
                notes["questions_skipped_no_gold"] += 1
                continue
            questions.setdefault(space, []).append(
                Question(
                    id=str(row["id"]),
                    text=str(row["text"]),
                    type=str(row.get("type") or "unknown"),
                    gold_units=gold,
                    stale=tuple(str(s) for s in row.get("stale") or []),
                    as_of=_iso("as_of", row.get("as_of")),
                )
            )
            taken += 1
        else:
            raise InvalidInput("--data", f"{path}: line kind {kind!r} is neither 'document' nor 'question'")
    scopes = [Scope(name=space, questions=qs, documents=documents.get(space, [])) for space, qs in questions.items()]
    for scope in scopes:
        known = {d.key for d in scope.documents}
        for q in scope.questions:
            notes["gold_ids_without_document"] += sum(1 for g in q.gold_units if g not in known)
    return Benchmark(name="versioned", scopes=scopes, plan=PLAN, notes=notes)
