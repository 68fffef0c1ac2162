"""Staging a call's facts: their tags resolved to Tag nodes (reusing existing ones), then the new tags, the
facts and their TAGS links added to the call's `GraphBatch`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graphmem.write.batch import GraphBatch, PendingFact
from graphmem.write.dedup import TAG, resolve_keys
from graphmem.write.embedding import CallEmbedder


def stage_tagged_facts(
    batch: GraphBatch,
    vectors_of: CallEmbedder,
    space: str,
    facts: Sequence[PendingFact],
    vectors: Sequence[list[float]],
    tag_similarity: float,
    now: datetime,
    *,
    band: int | None = None,
) -> None:
    """Resolve the facts' tags (reusing existing Tags) and stage the new tags, the facts and their links."""
    if not facts:
        return
    tags = resolve_keys(vectors_of, TAG, space, (t for f in facts for t in f.draft.tags), tag_similarity)
    batch.add_tags(tags.new, now)
    batch.add_facts(space, facts, vectors, tags, now, band=band)
