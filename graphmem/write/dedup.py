"""Tag and Subgoal de-duplication: one node per meaning per space.

A key is first reduced to its normal form (`normalize_tag`), which gives its content-derived id, so
exact repeats — also from concurrent writers — `MERGE` onto one node. A key whose normal form is new is
then compared, through the label's vector index (never a scan), with the nodes already in the space: at
cosine >= the threshold (tags 0.9, subgoals 0.8) it reuses that node. New keys within one call are also
compared with each other, earlier ones winning. A reused node keeps its own text and embedding, so a
cluster's text and embedding always agree. A tag never joins a tag that carries other numbers
(`graphmem.text.numbers`): "ward-7b" is not "ward-4c", nor "2024-10-02" "2024-01-12".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from graphmem.ids import content_id
from graphmem.text import normalize_tag, numbers_of, same_numbers
from graphmem.write.embedding import SUBGOALS, TAGS, CallEmbedder

LEGACY_FETCH = 50
NEAREST_BY_NUMBERS = 5  # neighbours read per new key when numbers must agree (the nearest may carry others)


@dataclass(frozen=True)
class KeyKind:
    """Where a kind of key lives: id prefix, the named queries that look it up, what its texts count as."""

    prefix: str
    embedded_as: str
    existing_query: str
    nearest_query: str
    nearest_legacy_query: str
    numbers_identify: bool = False  # a key joins only a node whose text carries the same numbers


TAG = KeyKind("tag", TAGS, "write/tag_existing", "write/tag_nearest", "write/tag_nearest_legacy", numbers_identify=True)
SUBGOAL = KeyKind(
    "subgoal", SUBGOALS, "write/subgoal_existing", "write/subgoal_nearest", "write/subgoal_nearest_legacy"
)


@dataclass
class NewKey:
    """A node to create: its id, display text, normal form and embedding."""

    id: str
    text: str
    norm: str
    embedding: list[float]


@dataclass
class Resolution:
    """`ids` maps each normal form to the node id it resolves to; `new` lists the nodes to create;
    `joined` counts, per node id, how many distinct normal forms of this call resolved to it."""

    ids: dict[str, str]
    new: list[NewKey]
    joined: dict[str, int]


def key_id(kind: KeyKind, space: str, norm: str) -> str:
    return content_id(kind.prefix, space, norm)


def vector_score(cosine: float) -> float:
    """Neo4j's cosine vector index reports (1 + cos) / 2; the score matching a cosine threshold."""
    return (1.0 + cosine) / 2.0


def resolve_keys(
    vectors_of: CallEmbedder,
    kind: KeyKind,
    space: str,
    texts: Iterable[str],
    threshold: float,
    known_vectors: Mapping[str, list[float]] | None = None,
) -> Resolution:
    """Resolve texts (tag names or subgoal texts) to node ids; see the module docstring. `known_vectors`
    (text -> embedding) saves embedding texts the caller has already embedded. Keys whose normal form has
    no node (they joined another) are remembered for the rest of the call, so they are embedded once."""
    store, summary = vectors_of.store, vectors_of.summary
    display: dict[str, str] = {}
    for text in texts:
        norm = normalize_tag(text)
        if norm and norm not in display:
            display[norm] = " ".join(text.split())
    ids = {norm: key_id(kind, space, norm) for norm in display}
    joined: dict[str, int] = {}
    if not ids:
        return Resolution({}, [], joined)
    existing = {
        r["id"] for r in summary.timed_db(lambda: store.read(kind.existing_query, space=space, ids=list(ids.values())))
    }
    fresh = [norm for norm, node_id in ids.items() if node_id not in existing]
    for node_id in ids.values():
        if node_id in existing:
            joined[node_id] = joined.get(node_id, 0) + 1
    if not fresh:
        return Resolution(ids, [], joined)

    vectors = vectors_of.embed([display[n] for n in fresh], kind.embedded_as, known=known_vectors)

    rows = [{"key": norm, "vector": vector} for norm, vector in zip(fresh, vectors, strict=True)]
    params = {
        "space": space,
        "rows": rows,
        "min_score": vector_score(threshold),
        "fetch": LEGACY_FETCH,
        "per_key": NEAREST_BY_NUMBERS if kind.numbers_identify else 1,
    }
    if store.server.supports_search_clause:
        near = summary.timed_db(lambda: store.read_search(kind.nearest_query, kind.nearest_legacy_query, **params))
    else:
        near = summary.timed_db(lambda: store.read(kind.nearest_legacy_query, **params))
    matched: dict[str, str] = {}
    for r in sorted(near, key=lambda r: -r["score"]):
        agrees = not kind.numbers_identify or same_numbers(r["name"], display[r["key"]])
        if agrees and r["key"] not in matched:
            matched[r["key"]] = r["id"]

    new: list[NewKey] = []
    unmatched = [i for i, norm in enumerate(fresh) if norm not in matched]
    groups = [numbers_of(display[fresh[i]]) for i in unmatched] if kind.numbers_identify else None
    leader = _greedy_clusters(np.asarray([vectors[i] for i in unmatched], dtype=np.float32), threshold, groups=groups)
    for norm in fresh:
        if norm in matched:
            ids[norm] = matched[norm]
            joined[ids[norm]] = joined.get(ids[norm], 0) + 1
    for position, i in enumerate(unmatched):
        norm = fresh[i]
        head = unmatched[leader[position]]
        if head == i:
            new.append(NewKey(ids[norm], display[norm], norm, vectors[i]))
        else:
            ids[norm] = ids[fresh[head]]
        joined[ids[norm]] = joined.get(ids[norm], 0) + 1
    joined_others = {display[n]: v for n, v in zip(fresh, vectors, strict=True) if ids[n] != key_id(kind, space, n)}
    vectors_of.remember(joined_others)
    return Resolution(ids, new, joined)


def _greedy_clusters(
    matrix: np.ndarray, threshold: float, block: int = 1024, groups: list[tuple[str, ...]] | None = None
) -> list[int]:
    """For each row (unit vectors), the index of the most similar earlier leader row at cosine >= threshold
    (and, with `groups`, in the same group), or its own index when none is (then it leads). Computed in
    blocks, so memory stays O(block x n)."""
    n = matrix.shape[0]
    leader = list(range(n))
    is_leader = np.zeros(n, dtype=bool)
    group_of = np.zeros(n, dtype=np.int64)
    if groups is not None:
        codes: dict[tuple[str, ...], int] = {}
        group_of = np.asarray([codes.setdefault(g, len(codes)) for g in groups], dtype=np.int64)
    for start in range(0, n, block):
        stop = min(n, start + block)
        sims = matrix[start:stop] @ matrix[:stop].T
        for i in range(start, stop):
            row = sims[i - start, :i]
            candidates = np.flatnonzero(is_leader[:i] & (row >= threshold) & (group_of[:i] == group_of[i]))
            if candidates.size:
                leader[i] = int(candidates[np.argmax(row[candidates])])
            else:
                is_leader[i] = True
    return leader
