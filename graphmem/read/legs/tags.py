"""Tag votes: the query's tags match Tag nodes exactly (by normal form, weight 5) or fuzzily (tag vector
index, cosine >= 0.8, the same numbers, weight 1); matched tags vote over TAGS for facts valid in scope;
facts the dense leg also found get +2; votes are normalised by each fact's tag count and *rank* the leg
(PlugMem only used them to widen the pool)."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import LegRanking, UnitRow
from graphmem.read.results import TagMatch
from graphmem.text import normalize_tag, same_numbers

_LEGACY_FETCH = 100


def match_tags(
    store: Store,
    embedder: Embedder,
    space: str,
    query_tags: Sequence[str],
    *,
    min_cosine: float = 0.8,
    exact_weight: float = 5.0,
    fuzzy_weight: float = 1.0,
    per_tag: int = 5,
) -> list[TagMatch]:
    """Tag nodes the query tags match, one entry per Tag node (an exact match beats a fuzzy one). A fuzzy
    match is one of a query tag's `per_tag` nearest tags, kept only when it carries the query tag's numbers
    (`graphmem.text.numbers`: "ward-7b" does not match "ward-4c")."""
    tags = [t for t in dict.fromkeys(t.strip() for t in query_tags) if t]
    if not tags:
        return []
    by_norm = {normalize_tag(t): t for t in tags}
    by_norm.pop("", None)
    vectors = embedder.embed(tags)
    params = dict(
        space=space,
        norms=list(by_norm),
        queries=[{"tag": t, "vector": store.vector(v)} for t, v in zip(tags, vectors, strict=True)],
        per_tag=per_tag,
        fetch=_LEGACY_FETCH,
        min_cosine=min_cosine,
    )
    # exact and fuzzy matches in one round trip
    if store.server.supports_search_clause:
        rows = store.read_search("read/tag_match", "read/tag_match_legacy", **params)
    else:
        rows = store.read("read/tag_match_legacy", **params)
    best: dict[str, TagMatch] = {}
    for row in rows:
        if row["match"] == "exact":
            best[row["id"]] = TagMatch(row["id"], row["name"], by_norm[row["query_tag"]], "exact", 1.0, exact_weight)
    fuzzy = [row for row in rows if row["match"] == "fuzzy" and same_numbers(row["name"], row["query_tag"])]
    for row in sorted(fuzzy, key=lambda r: r["similarity"], reverse=True):
        if row["id"] not in best:
            best[row["id"]] = TagMatch(
                row["id"], row["name"], row["query_tag"], "fuzzy", float(row["similarity"]), fuzzy_weight
            )
    return sorted(best.values(), key=lambda m: (-m.weight, -m.similarity, m.name))


def tag_vote_leg(
    store: Store,
    space: str,
    vector: Sequence[float],
    scope: AsOf,
    matches: Sequence[TagMatch],
    dense_ids: Sequence[str],
    k: int,
    dense_bonus: float = 2.0,
    by_rarity: bool = True,
) -> LegRanking:
    """Facts ranked by normalised tag votes (ties by cosine to the query); `by_rarity` weighs each tag's vote
    by 1 / ln(1 + its degree) (see `cypher/read/tag_votes`)."""
    if not matches:
        return LegRanking("tagvote", [])
    rows = store.read_rows(
        "read/tag_votes",
        space=space,
        vector=store.vector(vector),
        tags=[{"id": m.id, "weight": m.weight} for m in matches],
        dense_ids=list(dense_ids),
        dense_bonus=dense_bonus,
        by_rarity=by_rarity,
        k=k,
        **scope.params(),
    )
    return LegRanking("tagvote", [UnitRow.from_record(r) for r in rows])


def tag_document_leg(
    store: Store, space: str, vector: Sequence[float], scope: AsOf, matches: Sequence[TagMatch], k: int
) -> LegRanking:
    """Documents ranked by the question subjects their facts' tags cover (see `cypher/read/tag_documents`):
    the artefacts where the people, systems and topics a question names appear together."""
    subject = question_subjects([m.query_tag for m in matches])
    if len(set(subject.values())) < 2:
        return LegRanking("tagdocs", [])
    rows = store.read_rows(
        "read/tag_documents",
        space=space,
        vector=store.vector(vector),
        tags=[{"id": m.id, "weight": m.weight, "subject": subject[m.query_tag]} for m in matches],
        k=k,
        **scope.params(),
    )
    return LegRanking("tagdocs", [UnitRow.from_record(r) for r in rows])


def question_subjects(query_tags: Sequence[str]) -> dict[str, str]:
    """Each query tag's subject: the longest query tag whose words include all of its words ("Miguel" and
    "Torres's" belong to "Miguel Torres's"), so one person or system counts once however it was matched."""
    words = {t: set(normalize_tag(t).split()) for t in dict.fromkeys(query_tags)}
    by_size = sorted(words, key=lambda t: (-len(words[t]), t))
    return {t: next(s for s in by_size if words[t] <= words[s]) for t in words}
