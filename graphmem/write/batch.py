"""`GraphBatch`: the nodes and edges one ingest call writes, and `write_batch`, which writes them with
batched `UNWIND` statements inside one transaction (all land or none does)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.db import Store
from graphmem.errors import Conflict
from graphmem.evolution.importance import refresh_importance
from graphmem.ids import content_hash, content_id
from graphmem.model.nodes import STATUS_ACTIVE
from graphmem.text import normalize_tag
from graphmem.timeutil import FAR_FUTURE
from graphmem.write.dedup import NewKey, Resolution
from graphmem.write.statements import run_checked, run_counted
from graphmem.write.structurers.base import FactDraft

Row = dict[str, Any]
CAPTION_CHARS = 80
# Facts of a document link to the next few facts only (a band), so a long document costs O(n) edges.
DOCUMENT_SIBLING_BAND = 3


def caption(text: str, limit: int = CAPTION_CHARS) -> str:
    """A short single-line rendering for Neo4j Browser."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


@dataclass
class PendingFact:
    """A fact draft placed in context: its evidence, author and date, and its sibling group."""

    draft: FactDraft
    evidence_id: str
    author: str | None
    event_at: datetime
    group: str
    position: int
    weight: float = 1.0  # the caller's importance weight; one source, so the fact's importance starts equal to it

    def id(self, space: str) -> str:
        return content_id("fact", space, self.evidence_id, self.position, self.draft.text)


@dataclass
class GraphBatch:
    """Rows per statement; `supersessions` rows go to `apply_supersessions` after the nodes exist."""

    episodes: list[Row] = field(default_factory=list)
    episodics: list[Row] = field(default_factory=list)
    part_of: list[Row] = field(default_factory=list)
    next: list[Row] = field(default_factory=list)
    facts: list[Row] = field(default_factory=list)
    tags: list[Row] = field(default_factory=list)
    tag_links: list[Row] = field(default_factory=list)
    siblings: list[Row] = field(default_factory=list)
    subgoals: list[Row] = field(default_factory=list)
    procedurals: list[Row] = field(default_factory=list)
    procedural_evidence: list[Row] = field(default_factory=list)
    supersessions: list[Row] = field(default_factory=list)
    repeats: list[Row] = field(default_factory=list)

    def add_tags(self, new_tags: Sequence[NewKey], now: datetime) -> None:
        for tag in new_tags:
            self.tags.append(
                {
                    "id": tag.id,
                    "props": {
                        "name": tag.text,
                        "norm_name": tag.norm,
                        "embedding": tag.embedding,
                        "importance": 1.0,
                        "caption": caption(tag.text),
                        "recorded_at": now,
                        "expired_at": FAR_FUTURE,
                    },
                }
            )

    def add_facts(
        self,
        space: str,
        facts: Sequence[PendingFact],
        vectors: Sequence[list[float]],
        tags: Resolution,
        now: datetime,
        *,
        band: int | None = None,
    ) -> None:
        """Fact rows, their TAGS links and SIBLING edges: all pairs within a group, or each fact with the
        next `band` facts of its group when `band` is given."""
        groups: dict[str, list[str]] = {}
        for fact, vector in zip(facts, vectors, strict=True):
            fact_id = fact.id(space)
            self.facts.append(
                {
                    "id": fact_id,
                    "evidence_id": fact.evidence_id,
                    "props": {
                        "text": fact.draft.text,
                        "content_hash": content_hash(fact.draft.text),
                        "author": fact.author,
                        "event_at": fact.event_at,
                        "valid_from": fact.event_at,
                        "valid_to": FAR_FUTURE,
                        "status": STATUS_ACTIVE,
                        "credibility": 1.0,
                        "importance": fact.weight,
                        "importance_weight": fact.weight,
                        "embedding": vector,
                        "caption": caption(fact.draft.text),
                        "recorded_at": now,
                        "expired_at": FAR_FUTURE,
                    },
                }
            )
            for tag_id in dict.fromkeys(tags.ids[n] for n in map(normalize_tag, fact.draft.tags) if n in tags.ids):
                self.tag_links.append({"tag_id": tag_id, "fact_id": fact_id})
            groups.setdefault(fact.group, []).append(fact_id)
        for members in groups.values():
            for i, first in enumerate(members):
                later = members[i + 1 :] if band is None else members[i + 1 : i + 1 + band]
                self.siblings.extend({"from": first, "to": other} for other in later)


class WriteConflict(Conflict):
    """Ids that another writer stored with other content while this batch was being prepared; the batch's
    transaction is rolled back, and the caller names each record that used one of `ids`."""

    def __init__(self, ids: Sequence[str]) -> None:
        super().__init__("id", f"{', '.join(map(repr, ids))} already hold other content")
        self.ids = tuple(ids)


CHECKED = frozenset({"write/ingest_episodes", "write/ingest_episodic"})


def write_batch(store: Store, tx: ManagedTransaction, space: str, batch: GraphBatch) -> tuple[dict[str, int], int]:
    """Write every row of `batch` in `tx`; returns (nodes created per label, relationships created).

    Raises `WriteConflict` (so the transaction rolls back) when an episode or evidence unit id already holds
    other content: concurrent writers of one id with different texts get exactly one winner."""
    created: dict[str, int] = {}
    relationships = 0
    steps: list[tuple[str, str | None, list[Row]]] = [
        ("write/ingest_episodes", "Episode", batch.episodes),
        ("write/ingest_episodic", "Episodic", batch.episodics),
        ("write/ingest_part_of", None, batch.part_of),
        ("write/ingest_next", None, batch.next),
        ("write/ingest_semantic", "Semantic", batch.facts),
        ("write/ingest_tags", "Tag", batch.tags),
        ("write/ingest_tag_links", None, batch.tag_links),
        ("write/ingest_siblings", None, batch.siblings),
        ("write/ingest_subgoals", "Subgoal", batch.subgoals),
        ("write/ingest_procedural", "Procedural", batch.procedurals),
        ("write/ingest_procedural_evidence", None, batch.procedural_evidence),
        ("write/ingest_repeats", None, batch.repeats),
    ]
    for name, label, rows in steps:
        if name in CHECKED:
            nodes, rels, clashes = run_checked(tx, name, space=space, rows=rows)
            if clashes:
                raise WriteConflict(list(dict.fromkeys(clashes)))
        else:
            nodes, rels = run_counted(tx, name, space=space, rows=rows)
        if label:
            created[label] = created.get(label, 0) + nodes
        relationships += rels
    if batch.repeats:  # the repeated units' facts gained a source
        refresh_importance(store, tx, space, units=[row["to"] for row in batch.repeats])
    if batch.supersessions:
        from graphmem.evolution.supersede import apply_supersessions

        relationships += apply_supersessions(store, tx, space, batch.supersessions)
    return created, relationships
