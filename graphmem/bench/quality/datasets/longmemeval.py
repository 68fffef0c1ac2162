"""LongMemEval-S: one fresh space per question holding its haystack of chat sessions.

Session ids are renamed before anything reaches graphmem: gold ids begin with `answer_`, so the raw id
would leak the answer. A repeated session keeps one alias per occurrence; gold covers every occurrence of a
gold id. Abstention questions (`_abs`) have no evidence and are left out, as the benchmark's scripts do.
`question_date` is kept as context (`asked_at`), never as an as-of bound: the dataset's dates are noisy.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.bench.quality.datasets.base import Benchmark, MetricPlan, Question, Scope, Session, Turn
from graphmem.errors import InvalidInput

PLAN = MetricPlan(unit_ks=(5, 10), session_ks=(1, 5, 10), primary="session")


def read_json_maybe_gz(path: Path) -> Any:
    """JSON from a plain or gzip-compressed file (detected by magic bytes, not the name)."""
    with path.open("rb") as raw:
        gz = raw.read(2) == b"\x1f\x8b"
    try:
        with gzip.open(path, "rt", encoding="utf-8") if gz else path.open(encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInput("--data", f"{path} is not readable JSON: {exc}") from None


def parse_lme_date(value: str | None) -> str | None:
    """`2023/06/23 (Fri) 07:31` as ISO 8601 UTC; None when absent or unreadable."""
    if not value:
        return None
    text = value.split("(")[0].strip() + " " + value.split(")")[-1].strip()
    for fmt in ("%Y/%m/%d %H:%M", "%Y/%m/%d"):
        try:
            return datetime.strptime(text.strip(), fmt).strftime("%Y-%m-%dT%H:%M:00Z")
        except ValueError:
            continue
    return None


def session_alias(question_id: str, session_id: str, occurrence: int) -> str:
    """An opaque session id: nothing of the original id (nor its `answer_` prefix) survives."""
    digest = hashlib.sha256(f"{question_id}\x1f{session_id}\x1f{occurrence}".encode()).hexdigest()
    return f"s{digest[:16]}"


def _scope(item: dict[str, Any], notes: Counter[str]) -> Scope:
    qid = str(item["question_id"])
    ids = item.get("haystack_session_ids") or []
    dates = item.get("haystack_dates") or [None] * len(ids)
    sessions: list[Session] = []
    aliases: dict[str, list[str]] = {}
    gold_turns: list[str] = []
    seen: Counter[str] = Counter()
    for sid, date, turns in zip(ids, dates, item.get("haystack_sessions") or [], strict=False):
        alias = session_alias(qid, sid, seen[sid])
        seen[sid] += 1
        aliases.setdefault(sid, []).append(alias)
        kept: list[Turn] = []
        for index, turn in enumerate(turns):
            text = str(turn.get("content") or "").strip()
            if not text:
                notes["empty_turns_skipped"] += 1
                continue
            key = f"{alias}:{index}"
            kept.append(Turn(key=key, text=text, speaker=turn.get("role")))
            if turn.get("has_answer"):
                gold_turns.append(key)
        if not kept:
            notes["empty_sessions_skipped"] += 1
            continue
        sessions.append(Session(key=alias, started_at=parse_lme_date(date), turns=tuple(kept)))
    gold_sessions = tuple(a for sid in item.get("answer_session_ids") or [] for a in aliases.get(sid, []))
    question = Question(
        id=qid,
        text=str(item["question"]),
        type=str(item.get("question_type") or "unknown"),
        gold_units=tuple(gold_turns),
        gold_sessions=gold_sessions,
        asked_at=parse_lme_date(item.get("question_date")),
    )
    return Scope(name=qid, questions=[question], sessions=sessions)


def load(path: Path, limit: int | None = None) -> Benchmark:
    data = read_json_maybe_gz(path)
    if not isinstance(data, list):
        raise InvalidInput("--data", f"{path} is not a LongMemEval list of questions")
    notes: Counter[str] = Counter()
    scopes: list[Scope] = []
    for item in data:
        if str(item.get("question_id", "")).endswith("_abs"):
            notes["abstention_excluded"] += 1
            continue
        if limit is not None and len(scopes) >= limit:
            break
        scope = _scope(item, notes)
        if not scope.questions[0].gold_sessions:
            notes["no_gold_session_skipped"] += 1
            continue
        scopes.append(scope)
    return Benchmark(name="longmemeval", scopes=scopes, plan=PLAN, notes=notes)
