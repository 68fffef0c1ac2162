"""Score one question's rankings, then average over questions and by question type.

Metric names: the dataset's primary level is unprefixed (`recall@5`); the other level carries its unit
(`turn_recall@5` for LongMemEval turns, `session_recall@5` for LoCoMo sessions). A metric a question
cannot have (turn recall without gold turns, stale-above-gold without stale ids, future leak without an
as-of) is left out for that question, and its own count says over how many questions it was averaged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.bench.quality import metrics
from graphmem.bench.quality.datasets.base import MetricPlan, Question

# Conditional metrics and the count that goes with each in the aggregate.
CONDITIONAL_COUNTS = {"stale_above_gold": "n_stale", "future_leak": "n_as_of"}


@dataclass
class Ranking:
    """What one variant returned for one question, best first, as dataset keys."""

    units: list[str] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)
    # Reasoning variants only: the guidance's memory tokens and the tokens of the evidence it compressed.
    memory_tokens: int | None = None
    evidence_tokens: int | None = None


def _level_metrics(
    prefix: str, ranking: list[str], gold: tuple[str, ...], ks: tuple[int, ...], *, any_metrics: bool
) -> dict[str, float]:
    out: dict[str, float] = {}
    for k in ks:
        if any_metrics:
            out[f"{prefix}recall_any@{k}"] = metrics.recall_any_at(ranking, gold, k)
        out[f"{prefix}recall@{k}"] = metrics.recall_at(ranking, gold, k)
        out[f"{prefix}all@{k}"] = metrics.all_at(ranking, gold, k)
    out[f"{prefix}ndcg@10"] = metrics.ndcg_at(ranking, gold, 10)
    out[f"{prefix}mrr"] = metrics.mrr(ranking, gold)
    return out


def score_question(
    question: Question,
    ranking: Ranking,
    plan: MetricPlan,
    *,
    tokens: Callable[[str], int],
    event_at: Mapping[str, datetime | None] | None = None,
) -> dict[str, float]:
    """Every metric `plan` asks for, for one question. `tokens(key)` prices a unit or session whole."""
    scores: dict[str, float] = {}
    if plan.primary == "session":
        primary, primary_gold, ks = ranking.sessions, question.gold_sessions, plan.session_ks
        scores |= _level_metrics("", primary, primary_gold, ks, any_metrics=True)
        if question.gold_units:
            scores |= _level_metrics("turn_", ranking.units, question.gold_units, plan.unit_ks, any_metrics=False)
    else:
        primary, primary_gold, ks = ranking.units, question.gold_units, plan.unit_ks
        scores |= _level_metrics("", primary, primary_gold, ks, any_metrics=False)
        if plan.session_ks and question.gold_sessions:
            scores |= _level_metrics(
                "session_", ranking.sessions, question.gold_sessions, plan.session_ks, any_metrics=False
            )
    for k in ks:
        scores[f"evidence_tokens@{k}"] = float(metrics.evidence_tokens_at(primary, tokens, k))
    if ranking.memory_tokens is not None:
        scores |= _guidance_metrics(ranking, primary, primary_gold)
    if plan.versioned:
        scores["gold@1"] = metrics.gold_at_1(ranking.units, question.gold_units)
        if question.stale:
            scores["stale_above_gold"] = metrics.stale_above_gold(ranking.units, question.gold_units, question.stale)
        if question.as_of is not None:
            as_of = datetime.fromisoformat(question.as_of)
            depth = max(plan.unit_ks)
            scores["future_leak"] = metrics.future_leak(ranking.units[:depth], event_at or {}, as_of)
    return scores


def _guidance_metrics(ranking: Ranking, items: list[str], gold: tuple[str, ...]) -> dict[str, float]:
    """Memory tokens of the guidance, and whether the gold evidence is among the items it drew on (whole list)."""
    depth = max(1, len(metrics.dedupe(items)))
    return {
        "memory_tokens": float(ranking.memory_tokens or 0),
        "evidence_tokens_reasoned": float(ranking.evidence_tokens or 0),
        "guidance_recall_any": metrics.recall_any_at(items, gold, depth),
        "guidance_recall": metrics.recall_at(items, gold, depth),
        "guidance_all": metrics.all_at(items, gold, depth),
    }


def _mean(rows: list[dict[str, float]]) -> dict[str, Any]:
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for name, value in row.items():
            sums[name] += value
            counts[name] += 1
    out: dict[str, Any] = {}
    for name in sums:
        mean = sums[name] / counts[name]
        out[name] = round(mean, 1) if name.endswith("tokens") or name.startswith("evidence_tokens") else round(mean, 4)
    for name, count_name in CONDITIONAL_COUNTS.items():
        if name in counts:
            out[count_name] = counts[name]
    if any(name.startswith("turn_") for name in counts):
        out["n_turn"] = max(c for name, c in counts.items() if name.startswith("turn_"))
    out["n"] = len(rows)
    return out


def aggregate(rows: list[tuple[Question, dict[str, float]]]) -> dict[str, Any]:
    """Means over all questions plus `by_type` means, in the INTERFACES.md variant shape."""
    summary = _mean([scores for _, scores in rows])
    by_type: dict[str, list[dict[str, float]]] = defaultdict(list)
    for question, scores in rows:
        by_type[question.type].append(scores)
    summary["by_type"] = {kind: _mean(group) for kind, group in sorted(by_type.items())}
    return summary
