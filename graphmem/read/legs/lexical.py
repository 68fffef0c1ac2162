"""Lexical leg: the full-text (Lucene BM25) indexes, with user text made into a safe Lucene query."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import LegRanking, UnitRow, merge_by_score

# Where Lucene's standard tokenizer (UAX#29) makes one term per character (Han, Hiragana) or a term of a run
# (Katakana; Thai, Lao, Myanmar, Khmer), so that a word here is at most one term there.
_ONE_PER_CHAR = "\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_OWN_RUN = "\u30a0-\u30ff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
_TERM = re.compile(rf"[{_ONE_PER_CHAR}]|[{_OWN_RUN}]+|(?:(?![{_ONE_PER_CHAR}{_OWN_RUN}])\w)+", re.UNICODE)
# Lucene's tokenizer splits longer words into pieces of this length.
MAX_TERM_CHARS = 255
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')
# Lucene refuses more than 1024 clauses; long texts keep their first terms (x3 text fields of Episodic).
MAX_TERMS = 256
# The text fields of each kind's full-text indexes (`cypher/schema/fulltext_indexes`; `*_text_in_space` adds `space`).
TEXT_FIELDS = {
    "semantic": ("text",),
    "episodic": ("text", "action", "observation"),
    "procedural": ("text", "goal"),
}


def lucene_query(text: str) -> str:
    """User text as a Lucene query that matches any of its words and can never be parsed as syntax.

    Words are lower-cased (so AND / OR / NOT are plain words, not operators) and every Lucene special
    character is escaped; punctuation between words is dropped. Each word is one term for Lucene's analyser
    (CJK characters are words of their own, long words are cut), so `MAX_TERMS` words stay under Lucene's
    clause limit. Empty when the text has no words.
    """
    seen: set[str] = set()
    terms: list[str] = []
    for word in (w[:MAX_TERM_CHARS] for w in _TERM.findall(text.lower())):
        if word not in seen:
            seen.add(word)
            terms.append(_LUCENE_SPECIAL.sub(r"\\\1", word))
        if len(terms) >= MAX_TERMS:
            break
    return " ".join(terms)


def in_space_query(words: str, space: str, fields: Sequence[str]) -> str:
    """A Lucene query for `words` (from `lucene_query`) in the text `fields`, restricted to `space`'s nodes.

    The space is a phrase on the `space` field of the `*_text_in_space` indexes, analysed as the indexed value
    was, so every node of the space matches it whatever its characters; boosted by 0, it filters without
    changing the BM25 score. A phrase can also match a longer space holding the same words (`org 1` in
    `big org 1`), so the Cypher after it still checks `n.space`; a space with no words at all analyses to
    nothing and the query falls back to every space's hits.
    """
    phrase = space.replace("\\", "\\\\").replace('"', '\\"')
    text = " ".join(f"{field}:({words})" for field in fields)
    return f'+space:"{phrase}"^0 +({text})'


def lexical_leg(
    store: Store,
    space: str,
    text: str,
    vector: Sequence[float],
    scope: AsOf,
    kinds: Sequence[str],
    k: int,
    overfetch: int = 4,
) -> LegRanking:
    """BM25 ranking of units of `kinds` valid in `scope`, best first.

    Lucene returns the space's hits (see `in_space_query`), every kind's in one round trip; every version
    of them, so the status/time filter runs after Lucene's top `fetch`; while that leaves a kind fewer than
    k rows and Lucene had more hits, that kind is asked again with a bigger fetch (x8, up to `MAX_FETCH`),
    so the result is the scope's own BM25 top k.
    """
    words = lucene_query(text)
    if not words or not kinds:
        return LegRanking("lexical", [])
    query_vector = store.vector(vector)
    queries = {kind: in_space_query(words, space, TEXT_FIELDS[kind]) for kind in kinds}

    def top_k(asked: Sequence[str], fetch: int) -> dict[str, tuple[list[dict[str, Any]], int]]:
        rows = store.read(
            "read/fulltext_units",
            kinds=list(asked),
            queries={kind: queries[kind] for kind in asked},
            vector=query_vector,
            space=space,
            k=k,
            fetch=fetch,
            **scope.params(),
        )
        kept: dict[str, list[dict[str, Any]]] = {kind: [] for kind in asked}
        scanned = dict.fromkeys(asked, 0)
        for row in rows:
            scanned[row["kind"]] = row["scanned"]
            if row["id"] is not None:
                kept[row["kind"]].append(row)
        return {kind: (kept[kind], scanned[kind]) for kind in asked}

    fetch = max(k * overfetch, 200)
    found = top_k(kinds, fetch)
    rankings = []
    for kind in kinds:
        rows, scanned = found[kind]
        kind_fetch = fetch
        while len(rows) < k and scanned >= kind_fetch and kind_fetch < MAX_FETCH:
            kind_fetch = min(kind_fetch * 8, MAX_FETCH)
            rows, scanned = top_k([kind], kind_fetch)[kind]
        rankings.append([UnitRow.from_record(row) for row in rows])
    return merge_by_score("lexical", rankings, k)


MAX_FETCH = 20_000
