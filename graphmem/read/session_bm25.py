"""Session-level BM25 for source ranking: a session's evidence is spread over its turns, so its lexical
score is computed over the whole session text, not its best turn.

On LongMemEval-S dev (59 questions, BM25 alone, recall_any@5): whole-session BM25 0.983, best turn 0.915.
The full-text index holds turns, not sessions, so this is a rerank of the fused candidate sources: their
text comes from Neo4j (scoped in Cypher by space and time) and Okapi BM25 (k1 1.2, b 0.75, Lucene's
defaults; IDF over the candidates) scores them here.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"\w+", re.UNICODE)
K1 = 1.2
B = 0.75


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def bm25_scores(documents: Sequence[str], query: str) -> list[float]:
    """Okapi BM25 of `query` against each document, IDF taken over `documents`."""
    docs = [tokens(d) for d in documents]
    if not docs:
        return []
    n = len(docs)
    avg = (sum(len(d) for d in docs) / n) or 1.0
    df = Counter(w for d in docs for w in set(d))
    terms = set(tokens(query))
    scores: list[float] = []
    for doc in docs:
        tf = Counter(doc)
        score = 0.0
        for term in terms:
            f = tf.get(term, 0)
            if f:
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * len(doc) / avg))
        scores.append(score)
    return scores
