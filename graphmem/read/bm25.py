"""Okapi BM25 (k1 1.2, b 0.75, Lucene's defaults and IDF) over statistics the caller chooses: the lexical
leg's units scored with their own space's counts (`graphmem.read.legs.lexical`), and whole sources scored
with IDF over the candidate sources (`bm25_scores`), since the full-text index holds turns, not sessions.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

_WORD = re.compile(r"\w+", re.UNICODE)
K1 = 1.2
B = 0.75


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def idf(df: int, n: int) -> float:
    """Lucene's BM25 IDF of a term held by `df` of `n` documents."""
    return math.log(1 + (max(n, df) - df + 0.5) / (df + 0.5))


def okapi(doc: Sequence[str], weights: Mapping[str, float], avg_length: float) -> float:
    """BM25 of one tokenised document: each query term's `weights` (its IDF) times its saturated frequency,
    the length normalised by `avg_length`."""
    tf = Counter(doc)
    norm = K1 * (1 - B + B * len(doc) / (avg_length or 1.0))
    return sum(w * tf[t] * (K1 + 1) / (tf[t] + norm) for t, w in weights.items() if tf[t])


def bm25_scores(documents: Sequence[str], query: str) -> list[float]:
    """Okapi BM25 of `query` against each document, IDF taken over `documents`."""
    docs = [tokens(d) for d in documents]
    if not docs:
        return []
    avg = (sum(len(d) for d in docs) / len(docs)) or 1.0
    df = Counter(w for d in docs for w in set(d))
    weights = {term: idf(df[term], len(docs)) for term in set(tokens(query)) if df[term]}
    return [okapi(doc, weights, avg) for doc in docs]
