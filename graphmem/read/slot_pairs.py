"""Version choice by pairs of candidates: which of the first candidates state the same slot as the one that
states the question's slot best, decided per pair from the space's own term statistics, and which of them
holds at the as-of date (the newest, since scoping has already removed everything later).

A question names a slot by its words (`graphmem.read.slots.question_terms`), each weighed by its rarity
among the space's evidence units (`rarity`, counting each word in the forms the question wrote it): a
hyphenated name counts whole and by its parts, a word every unit holds weighs nothing. A candidate *holds*
the question words its own text or the text it was read from contains. The *anchor* is the dated candidate
of the window holding the most question weight (the better ranked on a tie). Another dated candidate states
the same slot as the anchor when the two hold nearly the same question words: the weight both hold is at
least `overlap` of the weight either holds, and at least `shared` of the question's weight. A card
"ward-7b / beds: 14" and a sentence "the bed count on ward-7b is 22" pair; "the bed count on ward-4c"
(another subject) and "ward-7b / consultant: ..." (another attribute) do not: each lacks heavy words the
anchor holds. A candidate that version choice by wording linked to a member as its newer or older version
joins the group as well.

The stage acts only when the anchor holds at least `shared` of the question's weight and its group has
versions on two dates or more: a question answered by several documents, none of which holds most of what
it names, is left as ranked. The group is then read first, in two tiers: members holding nearly as much
question weight as the anchor (within `tier`) newest first, then the others newest first; every other
candidate keeps its order below them. When an earlier stage has already chosen among the versions, the
group keeps that order and is only lifted. (When the stage runs, and when it defers to the wording stage or to
a question about an event, is the stage's business: `graphmem.read.pipeline.stages.slot_pairs`.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np

from graphmem.db import Store
from graphmem.read.fusion import Fused
from graphmem.read.legs.lexical import TEXT_FIELDS, in_space_query
from graphmem.read.pipeline.config import SlotPairsSettings
from graphmem.read.slots import slot_terms
from graphmem.text import normalize_tag

_LUCENE_WORD = re.compile(r"\w+", re.UNICODE)


def question_words(tags: Sequence[str]) -> dict[str, frozenset[str]]:
    """The normal forms of the question's tag words (`slot_terms`), each with the surface forms the question
    wrote it in ("payment": {"payment", "payments"}), so its rarity is counted as the units write it."""
    forms: dict[str, set[str]] = {}
    for tag in tags:
        for token in tag.lower().split():
            whole = token.strip("./-'’,;:!?()")
            for term in slot_terms(whole):
                forms.setdefault(term, {term})
            for word in {whole, *re.split(r"[-./'’]", whole)} - {""}:
                forms.setdefault(normalize_tag(word) or word, set()).add(word)
    return {term: frozenset(words) for term, words in forms.items()}


def rarity(store: Store, space: str, words: Mapping[str, frozenset[str]], cap: int) -> dict[str, float]:
    """ln(units / units holding the term in any of its forms) over `space`'s evidence units, both counted up
    to `cap` (one read, `cypher/read/term_rarity.cypher`); a term no unit holds is left out."""
    queries = []
    for term in sorted(words):
        phrases = sorted({" ".join(_LUCENE_WORD.findall(w)) for w in words[term]} - {""})
        if phrases:
            either = " OR ".join(f'"{p}"' for p in phrases)
            queries.append({"term": term, "query": in_space_query(either, space, TEXT_FIELDS["episodic"])})
    if not queries:
        return {}
    weights = {}
    for row in store.read("read/term_rarity", space=space, terms=queries, cap=cap):
        units, held = int(row["units"]), int(row["df"])
        if held > 0 and units > 0:
            weights[row["term"]] = max(0.0, math.log(max(units, held) / held))
    return weights


def weight_of(terms: frozenset[str], weights: Mapping[str, float]) -> float:
    return sum(weights.get(t, 0.0) for t in terms)


def same_slot(
    a: frozenset[str], b: frozenset[str], weights: Mapping[str, float], total: float, s: SlotPairsSettings
) -> bool:
    """True when two candidates holding question words `a` and `b` state one slot (module docstring)."""
    both = weight_of(a & b, weights)
    either = weight_of(a | b, weights)
    return either > 0 and both / either >= s.overlap and both / total >= s.shared


def near(a: Sequence[np.ndarray] | None, b: Sequence[np.ndarray] | None) -> float:
    """The highest cosine between any of `a`'s vectors (own text, source) and any of `b`'s; 1.0 when unknown."""
    if not a or not b:
        return 1.0
    return max(
        float(x @ y / max(np.linalg.norm(x) * np.linalg.norm(y), 1e-12)) for x in a for y in b if x.shape == y.shape
    )


def slot_group(
    window: Sequence[Fused],
    held: Mapping[str, frozenset[str]],
    weights: Mapping[str, float],
    s: SlotPairsSettings,
    vectors: Mapping[str, Sequence[np.ndarray]] | None = None,
    links: Mapping[str, set[str]] | None = None,
) -> tuple[list[Fused], dict[str, float]]:
    """The anchor's group in `window` (anchor first) and each member's share of the question's weight;
    empty when the stage does not act (module docstring). A dated candidate that `links` (newer id -> older
    ids, from version choice by wording) ties to a member joins the group."""
    total = sum(weights.values())
    if total <= 0:
        return [], {}
    dated = [f for f in window if f.row.event_at is not None]
    if len(dated) < 2:
        return [], {}
    cover = {f.row.id: weight_of(held.get(f.row.id, frozenset()), weights) / total for f in dated}
    anchor = max(dated, key=lambda f: cover[f.row.id])  # max keeps the first (better ranked) of equals
    if cover[anchor.row.id] < s.shared:
        return [], {}
    mine = held.get(anchor.row.id, frozenset())
    vecs = vectors or {}
    group = [anchor] + [
        f
        for f in dated
        if f is not anchor
        and same_slot(mine, held.get(f.row.id, frozenset()), weights, total, s)
        and (s.cosine <= -1 or near(vecs.get(anchor.row.id), vecs.get(f.row.id)) >= s.cosine)
    ]
    group += linked_versions(dated, group, links or {})
    if len({f.row.event_at for f in group}) < 2:
        return [], {}
    return group, {f.row.id: cover[f.row.id] for f in group}


def linked_versions(dated: Sequence[Fused], group: Sequence[Fused], links: Mapping[str, set[str]]) -> list[Fused]:
    """The candidates of `dated` outside `group` that `links` ties to a member, directly or through another."""
    ties: dict[str, set[str]] = {}
    for newer, olders in links.items():
        for older in olders:
            ties.setdefault(newer, set()).add(older)
            ties.setdefault(older, set()).add(newer)
    members = {f.row.id for f in group}
    reached, todo = set(members), list(members)
    while todo:
        for other in ties.get(todo.pop(), ()):
            if other not in reached:
                reached.add(other)
                todo.append(other)
    return [f for f in dated if f.row.id in reached and f.row.id not in members]


def order_slot_versions(
    ranked: Sequence[Fused],
    held: Mapping[str, frozenset[str]],
    weights: Mapping[str, float],
    s: SlotPairsSettings,
    vectors: Mapping[str, Sequence[np.ndarray]] | None = None,
    keep_order: bool = False,
    links: Mapping[str, set[str]] | None = None,
    pinned: str | None = None,
) -> list[Fused]:
    """`ranked` with the anchor's group of its first `s.window` candidates read first (module docstring),
    lifted to the window's best score; the lift is recorded in each member's value parts as `slot_version`.
    With `keep_order` the group keeps the order it has in `ranked` (an earlier stage chose among the
    versions) and is only lifted; `links` as in `slot_group`. A first candidate whose id is `pinned` (an
    earlier stage chose it) stays first, the group below it."""
    window = list(ranked[: s.window])
    group, cover = slot_group(window, held, weights, s, vectors, links)
    if not group:
        return list(ranked)
    best = cover[group[0].row.id]
    place = {f.row.id: n for n, f in enumerate(window)}

    def key(f: Fused) -> tuple[int, float, int]:
        tier = 1 if best - cover[f.row.id] <= s.tier else 2
        return (tier, -f.row.event_at.timestamp(), place[f.row.id])  # type: ignore[union-attr]

    ordered = sorted(group, key=(lambda f: place[f.row.id]) if keep_order else key)
    members = {f.row.id for f in group}
    if s.lift:
        top = max(f.rrf for f in window)
        for f in ordered:
            if f.rrf < top:
                f.row.extra.setdefault("value", {})["slot_version"] = top - f.rrf
                f.rrf = top
        rest = [f for f in window if f.row.id not in members]
        if pinned is not None and window[0].row.id == pinned:
            first = window[0]
            return [first] + [f for f in ordered + rest if f is not first] + list(ranked[s.window :])
        return ordered + rest + list(ranked[s.window :])
    slots = iter(ordered)
    placed = [next(slots) if f.row.id in members else f for f in window]
    return placed + list(ranked[s.window :])
