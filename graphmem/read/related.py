"""Related artefacts: a complete organisational answer needs more than the best-matching artefact.

A decision lives in a meeting, its notes, the follow-up email and the Slack thread; a policy in its
current version and the one it replaced. When a top hit rests on a document, that document's versions
(SUPERSEDES either way) and its thread (documents dated within a few days whose text is close to it and
whose facts share uncommon tags) come into the evidence right after the hit, ranked by how close they are.
Only the graph is used (dates, embeddings, tags, supersession edges), never the shape of ids; everything is
scoped to the space and the question's as-of bounds in Cypher (`cypher/read/related_documents.cypher`).
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.legs.base import native_time, open_ended
from graphmem.read.pipeline.config import RelatedSettings
from graphmem.read.results import RecallHit, RelatedArtefact


def related_artefacts(
    store: Store, settings: RelatedSettings, space: str, scope: AsOf, hits: Sequence[RecallHit]
) -> list[RelatedArtefact]:
    """Related documents of the first `settings.seeds` documents the hits rest on, best first
    per seed; a document comes back once, for the best-ranked hit, and never when a better hit rests on it."""
    if settings.seeds <= 0 or not hits:
        return []
    seed_ids = [h.id for h in hits]
    rows = store.read(
        "read/related_documents",
        space=space,
        seeds=seed_ids,
        max_seeds=settings.seeds,
        per_seed=settings.per_seed,
        window_days=settings.window_days,
        min_score=settings.min_score,
        tag_weight=settings.tag_weight,
        max_tag_degree=settings.max_tag_degree,
        **scope.params(),
    )
    seed_documents = {row["seed_document"]: int(row["position"]) for row in rows}  # its best hit position
    placed: set[str] = set()
    related: list[RelatedArtefact] = []
    for row in rows:
        if row["id"] is None:
            continue
        position = int(row["position"])
        earlier_seed = seed_documents.get(row["id"])
        if row["id"] in placed or (earlier_seed is not None and earlier_seed <= position):
            continue
        placed.add(row["id"])
        related.append(
            RelatedArtefact(
                id=row["id"],
                seed_id=seed_ids[position],
                seed_document=row["seed_document"],
                relation=row["relation"],
                score=float(row["score"]),
                shared_tags=list(row["shared"] or []),
                text=row["text"] or "",
                event_at=native_time(row["event_at"]),
                author=row["author"],
                status=row["status"],
                valid_from=native_time(row["valid_from"]),
                valid_to=open_ended(native_time(row["valid_to"])),
                source=row["source"],
            )
        )
    return related
