"""Retrieval metrics over one ranked list of keys and a gold set; every function is pure and total.

Conventions: `ranking` is best-first and may hold repeats (only the first occurrence counts); an empty
gold set is the caller's to exclude (functions return 0.0 for it rather than dividing by zero).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime


def dedupe(ranking: Sequence[str]) -> list[str]:
    """First occurrences in order: a session reached by several of its turns counts once."""
    return list(dict.fromkeys(ranking))


def recall_any_at(ranking: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 when at least one gold key is in the top k (LongMemEval's recall_any)."""
    return 1.0 if any(key in gold for key in dedupe(ranking)[:k]) else 0.0


def recall_at(ranking: Sequence[str], gold: Collection[str], k: int) -> float:
    """The share of gold keys found in the top k."""
    if not gold:
        return 0.0
    top = set(dedupe(ranking)[:k])
    return sum(1 for g in set(gold) if g in top) / len(set(gold))


def all_at(ranking: Sequence[str], gold: Collection[str], k: int) -> float:
    """1.0 when every gold key is in the top k (LongMemEval's recall_all, HotpotQA's "both supports")."""
    return 1.0 if gold and set(gold) <= set(dedupe(ranking)[:k]) else 0.0


def gold_at_1(ranking: Sequence[str], gold: Collection[str]) -> float:
    return recall_any_at(ranking, gold, 1)


def mrr(ranking: Sequence[str], gold: Collection[str]) -> float:
    """Reciprocal rank of the first gold key in the whole returned list; 0 when none came back."""
    for rank, key in enumerate(dedupe(ranking), 1):
        if key in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at(ranking: Sequence[str], gold: Collection[str], k: int = 10) -> float:
    """Binary-relevance nDCG@k: DCG = sum 1/log2(rank+1) over gold keys, normalised by the ideal list."""
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    dcg = sum(1.0 / math.log2(rank + 1) for rank, key in enumerate(dedupe(ranking)[:k], 1) if key in gold_set)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold_set), k) + 1))
    return dcg / ideal


def stale_above_gold(ranking: Sequence[str], gold: Collection[str], stale: Collection[str]) -> float:
    """1.0 when an outdated version is ranked above every gold key (or returned while no gold key is)."""
    for key in dedupe(ranking):
        if key in gold:
            return 0.0
        if key in stale:
            return 1.0
    return 0.0


def future_leak(ranking: Sequence[str], event_at: Mapping[str, datetime | None], as_of: datetime) -> float:
    """1.0 when anything returned is dated after `as_of`; undated units cannot leak."""
    return 1.0 if any((when := event_at.get(key)) is not None and when > as_of for key in ranking) else 0.0


def evidence_tokens_at(ranking: Sequence[str], tokens: Callable[[str], int], k: int) -> int:
    """Tokens an answering model would read if handed the top k units whole."""
    return sum(tokens(key) for key in dedupe(ranking)[:k])
