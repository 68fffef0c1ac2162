"""LoCoMo: one fresh space per conversation; gold is the evidence dialog ids and their sessions.

Evidence is parsed tolerantly: entries like `"D8:6; D9:17"`, `"D9:1 D4:4"` or `"D:11:26"` yield every id
they hold; ids that name no turn of the conversation are dropped and counted, and questions left with no
evidence are skipped and counted.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.bench.quality.datasets.base import Benchmark, MetricPlan, Question, Scope, Session, Turn
from graphmem.bench.quality.datasets.longmemeval import read_json_maybe_gz
from graphmem.errors import InvalidInput

PLAN = MetricPlan(unit_ks=(5, 10), session_ks=(5, 10), primary="unit")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_EVIDENCE_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_SESSION_KEY = re.compile(r"^session_(\d+)$")


def parse_evidence(entries: list[Any]) -> tuple[list[str], int]:
    """Dialog ids found in `entries` (deduplicated, in order) and how many entries held none."""
    found: list[str] = []
    unreadable = 0
    for entry in entries:
        matches = _EVIDENCE_ID.findall(str(entry))
        if not matches:
            unreadable += 1
        for session, turn in matches:
            key = f"D{int(session)}:{int(turn)}"
            if key not in found:
                found.append(key)
    return found, unreadable


def parse_locomo_date(value: str | None) -> str | None:
    """`1:56 pm on 8 May, 2023` as ISO 8601 UTC; None when absent or unreadable."""
    if not value:
        return None
    text = " ".join(value.replace(",", " ").split())
    for fmt in ("%I:%M %p on %d %B %Y", "%I:%M %p on %d %b %Y"):
        try:
            return datetime.strptime(text, fmt).strftime("%Y-%m-%dT%H:%M:00Z")
        except ValueError:
            continue
    return None


def turn_text(turn: dict[str, Any]) -> str:
    """A turn as a transcript line: the speaker's name is part of what was said to whom."""
    text = f"{turn.get('speaker', '')}: {turn.get('text', '')}".strip()
    caption = turn.get("blip_caption")
    if caption:
        text += f" [shared an image: {caption}]"
    return text


def _sessions(conversation: dict[str, Any]) -> list[Session]:
    numbers = sorted(int(m.group(1)) for k in conversation if (m := _SESSION_KEY.match(k)))
    sessions = []
    for n in numbers:
        turns = tuple(
            Turn(key=str(t["dia_id"]), text=turn_text(t), speaker=t.get("speaker"))
            for t in conversation[f"session_{n}"] or []
            if t.get("dia_id")
        )
        if turns:
            sessions.append(Session(f"D{n}", parse_locomo_date(conversation.get(f"session_{n}_date_time")), turns))
    return sessions


def load(path: Path, limit: int | None = None) -> Benchmark:
    data = read_json_maybe_gz(path)
    if not isinstance(data, list):
        raise InvalidInput("--data", f"{path} is not a LoCoMo list of conversations")
    notes: Counter[str] = Counter()
    scopes: list[Scope] = []
    taken = 0
    for conv in data:
        if limit is not None and taken >= limit:
            break
        sessions = _sessions(conv.get("conversation") or {})
        turn_keys = {t.key for s in sessions for t in s.turns}
        questions: list[Question] = []
        for index, qa in enumerate(conv.get("qa") or []):
            if limit is not None and taken >= limit:
                break
            evidence, unreadable = parse_evidence(list(qa.get("evidence") or []))
            notes["evidence_entries_unreadable"] += unreadable
            dropped = [e for e in evidence if e not in turn_keys]
            notes["evidence_ids_dropped_unknown_turn"] += len(dropped)
            evidence = [e for e in evidence if e in turn_keys]
            if not evidence:
                notes["questions_skipped_no_evidence"] += 1
                continue
            category = qa.get("category")
            questions.append(
                Question(
                    id=f"{conv.get('sample_id', 'conv')}#{index}",
                    text=str(qa.get("question") or ""),
                    type=CATEGORIES.get(category, str(category)) if isinstance(category, int) else str(category),
                    gold_units=tuple(evidence),
                    gold_sessions=tuple(dict.fromkeys(e.split(":")[0] for e in evidence)),
                )
            )
            taken += 1
        if questions:
            scopes.append(
                Scope(
                    name=str(conv.get("sample_id", f"conv{len(scopes)}")),
                    questions=questions,
                    sessions=sessions,
                )
            )
    return Benchmark(name="locomo", scopes=scopes, plan=PLAN, notes=notes)
