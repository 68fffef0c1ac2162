"""Version choice by slot: which candidates state the value the question asks for, read from the space's own
term statistics and the candidates' dates, not from how a language phrases a value or a change.

A question names a slot: a subject and an attribute ("the bed count on ward-7b"). Its words are those of its
tags, in the tags' normal form, and a hyphenated or dotted word counts whole and by its parts ("ward-7b",
"ward", "7b"). Each word weighs its rarity among the space's evidence units, ln(units / units holding it),
counted by the full-text index (at most `cap` each, one read). A candidate covers the share of that weight
its own text and the text it was read from hold: a record of ward-7b's beds covers "ward-7b" and "bed"
however it is laid out (a card, a table row, an erratum); one of ward-4c's beds covers only "bed"; a word
every unit holds weighs nothing. A share of `saturation` or more counts in full, since versions of one
slot name its attribute in different words ("head of", "team lead"). Coverage adds `weight` x
min(1, share / saturation) to the fused score.

When the question asks about a state (`asks_about_state`), the dated candidates within `margin` of the best
score after coverage are taken as the versions of its slot: they are lifted to the best score and read
newest first, since scoping has already removed everything after the question's as-of date and the latest
version known then is the answer. A question about an event or a change ("when did ...", "since when",
"first", "replaced") is left ranked by coverage: there the older version may be the answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from graphmem.db import Store
from graphmem.read.fusion import Fused
from graphmem.read.legs.lexical import TEXT_FIELDS, in_space_query
from graphmem.text import normalize_tag

_WORD = re.compile(r"\w[\w'’./-]*\w|\w", re.UNICODE)
_PARTS = re.compile(r"[-./'’]")
_LUCENE_WORD = re.compile(r"\w+", re.UNICODE)
# Interrogatives of an event or a change: the question asks when a value came in or what it replaced.
_EVENT_CUES = re.compile(
    r"\b(when|since|first|before|previous(ly)?|prior|replac\w*|used to|formerly|superseded|what changed)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def slot_terms(text: str) -> frozenset[str]:
    """The normal forms of `text`'s words, a hyphenated or dotted word whole and by its parts."""
    out: set[str] = set()
    for token in _WORD.findall(text.lower()):
        token = token.strip("./-'’")
        if not token:
            continue
        out.add(normalize_tag(token) or token)
        parts = [p for p in _PARTS.split(token) if p]
        if len(parts) > 1:
            out.update(normalize_tag(p) or p for p in parts)
    return frozenset(out)


def question_terms(tags: Sequence[str]) -> frozenset[str]:
    """The words of a question's tags (`slot_terms` of each): what it names, without its function words."""
    out: set[str] = set()
    for tag in tags:
        out |= slot_terms(tag)
    return frozenset(out)


def asks_about_state(query: str) -> bool:
    """True unless the question asks when something happened or what it replaced (see the module docstring)."""
    return _EVENT_CUES.search(query) is None


def term_weights(store: Store, space: str, terms: Sequence[str], cap: int) -> dict[str, float]:
    """ln(units / units holding the term) over `space`'s evidence units, both counted up to `cap` (one read);
    a term no unit holds is left out."""
    queries = []
    for term in sorted(terms):
        words = " ".join(_LUCENE_WORD.findall(term))
        if words:
            queries.append({"term": term, "query": in_space_query(f'"{words}"', space, TEXT_FIELDS["episodic"])})
    if not queries:
        return {}
    rows = store.read("read/term_rarity", space=space, terms=queries, cap=cap)
    weights = {}
    for row in rows:
        units, held = int(row["units"]), int(row["df"])
        if held > 0 and units > 0:
            weights[row["term"]] = max(0.0, math.log(max(units, held) / held))
    return weights


@dataclass(frozen=True)
class SlotSettings:
    weight: float
    margin: float
    window: int
    saturation: float = 1.0


def choose_by_slot(
    ranked: Sequence[Fused],
    texts: Mapping[str, str],
    weights: Mapping[str, float],
    settings: SlotSettings,
    state: bool,
) -> list[Fused]:
    """`ranked` with its first `settings.window` candidates rescored by coverage and, for a question about a
    state, the versions of its slot lifted and read newest first (module docstring). `texts` holds each
    candidate's own text with the text it was read from; what each step added is recorded in the
    candidate's value parts (`slot_coverage`, `slot_newest`)."""
    total = sum(weights.values())
    window = list(ranked[: settings.window])
    if total <= 0 or not window or settings.weight <= 0:
        return list(ranked)
    for f in window:
        held = slot_terms(texts.get(f.row.id) or f.row.text or "")
        share = min(1.0, sum(w for term, w in weights.items() if term in held) / total / settings.saturation)
        if share > 0:
            f.row.extra.setdefault("value", {})["slot_coverage"] = share
            f.rrf += settings.weight * share
    place = {f.row.id: n for n, f in enumerate(window)}
    window.sort(key=lambda f: (-f.rrf, place[f.row.id]))  # ties keep the order the earlier stages gave
    if state:
        best = window[0].rrf
        versions = [f for f in window if f.row.event_at is not None and best - f.rrf <= settings.margin]
        if len(versions) > 1:
            versions.sort(key=lambda f: (f.row.event_at, f.rrf), reverse=True)
            for f in versions:
                if f.rrf < best:
                    f.row.extra.setdefault("value", {})["slot_newest"] = best - f.rrf
                    f.rrf = best
            chosen = {f.row.id for f in versions}
            window = versions + [f for f in window if f.row.id not in chosen]
    return window + list(ranked[settings.window :])
