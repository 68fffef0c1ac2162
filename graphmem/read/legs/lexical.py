"""Lexical leg: the full-text (Lucene BM25) indexes, with user text made into a safe Lucene query."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.bm25 import idf, okapi
from graphmem.read.legs.base import LegRanking, UnitRow, kind_pool
from graphmem.read.legs.space_profile import PROFILES

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
    return " ".join(escape(term) for term in query_terms(text))


def escape(term: str) -> str:
    """One term with Lucene's special characters escaped."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def query_terms(text: str) -> list[str]:
    """The distinct terms of `text` that `lucene_query` sends, unescaped, in order."""
    seen: dict[str, None] = {}
    for word in unit_terms(text):
        seen.setdefault(word)
        if len(seen) >= MAX_TERMS:
            break
    return list(seen)


def unit_terms(text: str) -> list[str]:
    """`text` cut into terms as Lucene's standard analyser cuts it (lower case, UAX#29 words; approximately)."""
    return [w[:MAX_TERM_CHARS] for w in _TERM.findall(text.lower())]


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
    stats_cap: int = 500,
    profile_ttl: float = 300.0,
) -> LegRanking:
    """BM25 ranking of units of `kinds` valid in `scope`, best first, scored with `space`'s own statistics.

    Lucene returns the space's hits (see `in_space_query`), every kind's in one round trip; every version
    of them, so the status/time filter runs after Lucene's top `fetch`; while that leaves a kind fewer than
    k rows and Lucene had more hits, that kind is asked again with a bigger fetch (x8, up to `MAX_FETCH`).
    Lucene's own scores use index-wide statistics, which every space in the index shares, so the hits are
    scored again with the space's (`space_scores`): another tenant's data never moves a space's ranking or
    scores. Only which hits make up the top `fetch`, when the space holds more than that, is Lucene's choice.
    """
    terms = query_terms(text)
    if not terms or not kinds:
        return LegRanking("lexical", [])
    words = " ".join(escape(term) for term in terms)
    queries = {kind: in_space_query(words, space, TEXT_FIELDS[kind]) for kind in kinds}
    stats = kind_pool().submit(space_statistics, store, space, terms, kinds, stats_cap, profile_ttl)

    def pools(asked: Sequence[str], fetch: int) -> dict[str, tuple[list[tuple[str, str, float]], int]]:
        """Per kind: the scope's hits among Lucene's first `fetch` (id, text, Lucene's score) and how many
        hits Lucene had."""
        rows = store.read(
            "read/fulltext_units",
            kinds=list(asked),
            queries={kind: queries[kind] for kind in asked},
            space=space,
            k=fetch,
            fetch=fetch,
            **scope.params(),
        )
        return {
            row["kind"]: (list(zip(row["ids"], row["texts"], row["scores"], strict=True)), row["scanned"])
            for row in rows
        }

    fetch = max(k * overfetch, 200)
    found = pools(kinds, fetch)
    counts = stats.result()
    scored: list[tuple[float, float, str, str]] = []
    for kind in kinds:
        rows, scanned = found.get(kind, ([], 0))
        kind_fetch = fetch
        while len(rows) < k and scanned >= kind_fetch and kind_fetch < MAX_FETCH:
            kind_fetch = min(kind_fetch * 8, MAX_FETCH)
            rows, scanned = pools([kind], kind_fetch).get(kind, ([], 0))
        scores = space_scores([text or "" for _, text, _ in rows], counts[kind])
        scored.extend((score, lucene, id_, kind) for score, (id_, _, lucene) in zip(scores, rows, strict=True))
    best = sorted(scored, key=lambda s: (-s[0], -s[1], s[2]))[:k]
    if not best:
        return LegRanking("lexical", [])
    units = store.read_rows(
        "read/lexical_units",
        rows=[{"id": id_, "kind": kind, "score": score} for score, _, id_, kind in best],
        vector=store.vector(vector),
        space=space,
    )
    return LegRanking("lexical", [UnitRow.from_record(row) for row in units])


def space_statistics(
    store: Store, space: str, terms: Sequence[str], kinds: Sequence[str], cap: int, ttl: float
) -> dict[str, SpaceStatistics]:
    """Per kind: how many of `space`'s units there are, how many hold each of `terms`, their mean length.

    Counted live up to `cap` by the space's own full-text hits (one read), which is exact for a space
    holding fewer than `cap` units of the kind. In a bigger space the unit count comes from the space's
    kept profile (`space_profile`), and a term held by `cap` units or more is taken to be held by its
    share of the profile's sampled units (at least `cap`). The mean length is the profile's. Only the first
    `MAX_COUNTED_TERMS` terms are counted live, so a long question costs a bounded read; the rest are taken
    to be held by their sampled share (exact in a space of up to `space_profile.SAMPLE` units)."""
    counted = terms[:MAX_COUNTED_TERMS]
    queries = {
        kind: [{"term": t, "query": in_space_query(escape(t), space, TEXT_FIELDS[kind])} for t in counted]
        for kind in kinds
    }
    live: dict[str, tuple[int, dict[str, int]]] = {kind: (0, {}) for kind in kinds}
    for row in store.read("read/lexical_stats", kinds=list(kinds), terms=queries, space=space, cap=cap):
        live[row["kind"]] = (int(row["units"]), {c["term"]: int(c["df"]) for c in row["counts"]})
    out = {}
    for kind, (units, df) in live.items():
        exact = units < cap
        profile = PROFILES.get(store, space, kind, ttl, unit_terms, units if exact else None)
        if not exact:
            units = max(units, profile.units)
            df = {t: held if held < cap else max(held, round(units * profile.share(t))) for t, held in df.items()}
        df.update((t, round(units * profile.share(t))) for t in terms[MAX_COUNTED_TERMS:])
        out[kind] = SpaceStatistics(units, df, profile.mean_length)
    return out


@dataclass(frozen=True)
class SpaceStatistics:
    """What BM25 needs of a space: its units of a kind, how many hold each query term, their mean length."""

    units: int
    df: dict[str, int]
    mean_length: float


def space_scores(texts: Sequence[str], stats: SpaceStatistics) -> list[float]:
    """BM25 of each unit text against the query terms `stats` counts, with the space's own IDF and mean
    length."""
    weights = {term: idf(held, stats.units) for term, held in stats.df.items() if held > 0}
    return [okapi(unit_terms(text), weights, stats.mean_length) for text in texts]


MAX_FETCH = 20_000
# Query terms whose units are counted live, per kind (each a capped full-text read).
MAX_COUNTED_TERMS = 64
