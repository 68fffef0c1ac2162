"""Read-time version choice (Mem++ defers it to read time), for questions about a state: when two
candidates say nearly the same thing (text cosine >= GRAPHMEM_READ_VERSION_COSINE) about the same subject
(a shared tag) on different dates, and the question does not tell them apart (the older one's score is at
most GRAPHMEM_READ_VERSION_MARGIN above the newer one's), the newer one is ranked just above the older one.

Scoping has already removed everything after the question's as-of date, so "newer" means the latest
version known then, and "who heads Payments now" answers with the latest announcement even when nobody
linked the versions by a supersession. A question asks about a state when it gives an as-of date or says
"now", "current", "currently", "latest", "today", "still", "at present" or "these days"; a question about an
event ("when did Mateo take over?") is left as ranked, since there the older version may be the answer, and
so is a question about the change itself ("what is the policy now and what did it replace?"), which needs
both versions and gains nothing from demoting the older one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from neo4j.vector import Vector

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.fusion import Fused

_STATE_CUES = re.compile(
    r"\b(now|current|currently|latest|today|still|nowadays|at present|these days|as of)\b", re.IGNORECASE
)
_CHANGE_CUES = re.compile(
    r"\b(before|previous(ly)?|prior|replac\w*|used to|formerly|superseded|what changed)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class UnitSubject:
    """What version choice and contradiction surfacing read about a candidate, in one lookup."""

    embedding: np.ndarray | None
    tags: frozenset[str]  # normal forms: a fact's own tags, an evidence unit's those of its facts
    tag_names: list[str] | None  # a fact's tag names in the space; None for other kinds


def asks_for_state(query: str, scope: AsOf) -> bool:
    """True for a question about what holds (at a date, or now), not about a change; see the module docstring."""
    if _CHANGE_CUES.search(query) is not None:
        return False
    return not scope.current or _STATE_CUES.search(query) is not None


def version_candidates(ranked: Sequence[Fused], window: int) -> list[str]:
    """Ids of the dated candidates in the first `window` that version choice compares (none if under two)."""
    head = [f.row.id for f in ranked[:window] if f.row.event_at is not None]
    return head if window > 1 and len(head) >= 2 else []


def unit_subjects(store: Store, space: str, ids: Sequence[str]) -> dict[str, UnitSubject]:
    """Embedding and tags of the given units of `space` (one read; none for no ids)."""
    if not ids:
        return {}
    name = "read/unit_embeddings" if store.server.supports_vector_type else "read/unit_embeddings_legacy"
    subjects = {}
    for r in store.read(name, space=space, ids=list(ids)):
        embedding = r["embedding"]
        if isinstance(embedding, Vector):
            embedding = embedding.to_numpy()
        subjects[r["id"]] = UnitSubject(
            embedding=np.asarray(embedding, dtype=np.float32) if embedding is not None and len(embedding) else None,
            tags=frozenset(r["tags"] or ()),
            tag_names=r["tag_names"],
        )
    return subjects


def prefer_newer_versions(
    ranked: Sequence[Fused], subjects: Mapping[str, UnitSubject], window: int, min_cosine: float, margin: float
) -> list[Fused]:
    """`ranked` with the first `window` candidates reordered as the module docstring says, `subjects` being
    `unit_subjects` of `version_candidates(ranked, window)`; the boost a newer version got is recorded in
    its value parts as `newer_version`."""
    vectors: dict[str, np.ndarray] = {}
    for f in ranked[:window]:
        subject = subjects.get(f.row.id)
        if f.row.event_at is not None and subject is not None and subject.embedding is not None:
            vectors[f.row.id] = subject.embedding
    head = [f for f in ranked[:window] if f.row.id in vectors]
    if window <= 1 or len(head) < 2:
        return list(ranked)
    matrix = np.stack([vectors[f.row.id] for f in head])
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    cosine = matrix @ matrix.T
    tags = {f.row.id: subjects[f.row.id].tags for f in head}
    # Oldest first, so a lift carries on along a chain of versions (2022 -> 2023 -> 2024).
    chronological = sorted(range(len(head)), key=lambda n: head[n].row.event_at)  # type: ignore[arg-type, return-value]
    score = {f.row.id: f.rrf for f in head}
    lifted: dict[str, float] = {}
    for position, j in enumerate(chronological):
        newer = head[j]
        best = newer.rrf
        for i in chronological[:position]:
            older = head[i]
            if (
                older.row.event_at < newer.row.event_at  # type: ignore[operator]
                and cosine[i, j] >= min_cosine
                and tags[older.row.id] & tags[newer.row.id]
                and 0 < score[older.row.id] - newer.rrf <= margin
            ):
                best = max(best, score[older.row.id])
        if best > newer.rrf:
            lifted[newer.row.id] = score[newer.row.id] = best
    if not lifted:
        return list(ranked)
    top = list(ranked[:window])
    own = {f.row.id: f.rrf for f in top}
    for f in top:
        if f.row.id in lifted:
            f.row.extra.setdefault("value", {})["newer_version"] = lifted[f.row.id] - f.rrf
            f.rrf = lifted[f.row.id]
    # at a tied score a lifted (newer) version goes first, several of them by their own score
    top.sort(key=lambda f: (-round(f.rrf, 12), f.row.id not in lifted, -own[f.row.id]))
    return top + list(ranked[window:])
