"""What the read path returns: typed, stable dataclasses the CLI, GraphQL and benchmarks expose as they are.

Times are aware UTC datetimes; `valid_to` is None for "still current" (the far-future sentinel).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.timeutil import iso


@dataclass(frozen=True)
class LegSignal:
    """How one leg saw a hit: its 1-based rank in that leg and the leg's own score."""

    rank: int
    score: float


@dataclass
class RecallHit:
    """One ranked memory unit: a fact (semantic), a procedure (procedural) or an evidence unit (episodic).

    `signals` explains the ranking: leg name -> LegSignal, and `stage:<name>` -> what a refine stage did (rank
    before it, score it added); `value` holds the value-model components (relevance, recency, importance,
    return, credibility, uses, rrf) and what stages added; `score` is the final score.
    """

    id: str
    kind: str
    text: str
    score: float
    signals: dict[str, LegSignal]
    event_at: datetime | None
    author: str | None
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    episode_id: str | None = None
    value: dict[str, float] = field(default_factory=dict)
    latest_slot: bool = False
    seq: int | None = None
    unit_kind: str | None = None
    repeats: tuple[str, ...] = ()  # ids of units with the same text folded into this one (graphmem.read.repeats)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "score": round(self.score, 6),
            "signals": {leg: {"rank": s.rank, "score": round(s.score, 6)} for leg, s in self.signals.items()},
            "value": {name: round(v, 6) for name, v in self.value.items()},
            "latest_slot": self.latest_slot,
            "event_at": iso(self.event_at),
            "author": self.author,
            "status": self.status,
            "valid_from": iso(self.valid_from),
            "valid_to": iso(self.valid_to),
            "episode_id": self.episode_id,
        }


@dataclass(frozen=True)
class EpisodeUnit:
    """One unit of an expanded episode, in episode order."""

    id: str
    seq: int | None
    text: str
    event_at: datetime | None
    author: str | None


@dataclass
class ExpandedEpisode:
    """A session / trajectory returned whole because `hit_count` of its units were hits."""

    episode_id: str
    session_id: str | None
    goal: str | None
    hit_count: int
    units: list[EpisodeUnit]

    def to_dict(self) -> dict[str, Any]:
        return {
            "episode_id": self.episode_id,
            "session_id": self.session_id,
            "goal": self.goal,
            "hit_count": self.hit_count,
            "units": [
                {"id": u.id, "seq": u.seq, "text": u.text, "event_at": iso(u.event_at), "author": u.author}
                for u in self.units
            ],
        }


@dataclass(frozen=True)
class RelatedArtefact:
    """A document a top hit brought into the evidence: a version it supersedes or is superseded by, or
    another artefact of its thread (close in time and content). `seed_id` is the hit that brought it,
    `seed_document` the document that hit rests on; `shared_tags` are the uncommon tags they share."""

    id: str
    seed_id: str
    seed_document: str
    relation: str
    score: float
    shared_tags: list[str]
    text: str
    event_at: datetime | None
    author: str | None
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed_id": self.seed_id,
            "seed_document": self.seed_document,
            "relation": self.relation,
            "score": round(self.score, 6),
            "shared_tags": self.shared_tags,
            "text": self.text,
            "event_at": iso(self.event_at),
            "author": self.author,
            "status": self.status,
            "valid_from": iso(self.valid_from),
            "valid_to": iso(self.valid_to),
            "source": self.source,
        }


@dataclass(frozen=True)
class ContradictionSide:
    """One side of a contradiction: the fact, who stated it, when, and the document it rests on."""

    id: str
    text: str
    author: str | None
    event_at: datetime | None
    status: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "text": self.text,
            "author": self.author,
            "event_at": iso(self.event_at),
            "status": self.status,
        }


@dataclass(frozen=True)
class Contradiction:
    """Two active facts from different authors that disagree about one subject; earlier side first.
    Neither is picked: both stand until a supersession resolves them."""

    subject: list[str]
    reason: str
    sides: tuple[ContradictionSide, ContradictionSide]

    def to_dict(self) -> dict[str, Any]:
        return {"subject": self.subject, "reason": self.reason, "sides": [s.to_dict() for s in self.sides]}


@dataclass
class SourceHit:
    """A ranked source: an Episode (session, trajectory) or a document, aggregated from its units' hits.

    Benchmarks score at this level (LongMemEval sessions, versioned documents). `kind` is 'episode' or
    'document'; `unit_ids` are its matching units, best first.
    """

    id: str
    kind: str
    score: float
    signals: dict[str, LegSignal]
    unit_ids: list[str]
    event_at: datetime | None
    session_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "score": round(self.score, 6),
            "signals": {leg: {"rank": s.rank, "score": round(s.score, 6)} for leg, s in self.signals.items()},
            "unit_ids": self.unit_ids,
            "event_at": iso(self.event_at),
            "session_id": self.session_id,
        }


@dataclass(frozen=True)
class Plan:
    """What to retrieve: the query text, its tags, the next subgoal and the mode; `dense_query` is the text
    embedded for the dense legs where it differs from the query (`hybrid` leaves a conversation's main
    participants' names out, see `graphmem.read.participants`)."""

    query: str
    tags: list[str]
    next_subgoal: str | None
    mode: str
    dense_query: str | None = None


def evidence_order(hits: list[RecallHit], related: list[RelatedArtefact]) -> list[RecallHit | RelatedArtefact]:
    """Hits in rank order, each followed by the related artefacts it brought (the evidence's order)."""
    by_seed: dict[str, list[RelatedArtefact]] = {}
    for artefact in related:
        by_seed.setdefault(artefact.seed_id, []).append(artefact)
    order: list[RecallHit | RelatedArtefact] = []
    for hit in hits:
        order.append(hit)
        order.extend(by_seed.pop(hit.id, []))
    return order


@dataclass
class RecallResult:
    """A recall: ranked hits, the packed evidence (rank order, date/author prefixes, within budget)."""

    hits: list[RecallHit]
    evidence: str
    evidence_tokens: int
    episodes: list[ExpandedEpisode]
    plan: Plan
    variant: str
    as_of: datetime
    known_at: datetime
    legs: tuple[str, ...]
    timings_ms: dict[str, float] = field(default_factory=dict)
    evidence_items: int = 0
    evidence_chars: int = 0
    evidence_truncated: bool = False
    related: list[RelatedArtefact] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    as_of_from_question: bool = False

    def evidence_order(self) -> list[RecallHit | RelatedArtefact]:
        """Hits in rank order, each followed by the related artefacts it brought (the evidence's order)."""
        return evidence_order(self.hits, self.related)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.plan.query,
            "variant": self.variant,
            "mode": self.plan.mode,
            "tags": self.plan.tags,
            "dense_query": self.plan.dense_query,
            "as_of": iso(self.as_of),
            "as_of_from_question": self.as_of_from_question,
            "known_at": iso(self.known_at),
            "legs": list(self.legs),
            "hits": [h.to_dict() for h in self.hits],
            "episodes": [e.to_dict() for e in self.episodes],
            "evidence": self.evidence,
            "evidence_tokens": self.evidence_tokens,
            "evidence_items": self.evidence_items,
            "evidence_chars": self.evidence_chars,
            "evidence_truncated": self.evidence_truncated,
            "related": [r.to_dict() for r in self.related],
            "contradictions": [c.to_dict() for c in self.contradictions],
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
        }


@dataclass(frozen=True)
class TagMatch:
    """A Tag node a query tag matched: exactly (by normal form) or fuzzily (tag vector index)."""

    id: str
    name: str
    query_tag: str
    match: str
    similarity: float
    weight: float


@dataclass
class TagVoteResult:
    query_tags: list[str]
    matches: list[TagMatch]
    facts: list[RecallHit]


@dataclass
class Reasoned:
    """`retrieve_and_reason`: guidance compressed from the evidence within `budget` tokens, the memory tokens
    it costs (`memory_tokens` <= `budget`), and the evidence items it drew on, with their provenance."""

    guidance: str
    memory_tokens: int
    used_llm: bool
    recall: RecallResult
    budget: int = 0
    items: list[ReasonedItem] = field(default_factory=list)

    @property
    def evidence_tokens(self) -> int:
        """Tokens of the packed evidence the guidance was compressed from."""
        return self.recall.evidence_tokens


@dataclass(frozen=True)
class EvidenceUnit:
    id: str
    text: str
    event_at: datetime | None
    author: str | None
    seq: int | None
    source: str | None
    episode_id: str | None
    session_id: str | None
    episode_goal: str | None


@dataclass(frozen=True)
class ReasonedItem:
    """An evidence item guidance drew on: a fact or procedure (with the evidence units it rests on), an
    evidence unit, a related document (`relation`: how it relates to the hit that brought it) or a whole
    episode (`kind` episode, its units as evidence). `source_ids` are the episodes the evidence belongs to."""

    id: str
    kind: str
    text: str
    event_at: datetime | None
    author: str | None
    status: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    episode_id: str | None
    relation: str | None
    evidence: tuple[EvidenceUnit, ...]

    @property
    def source_ids(self) -> list[str]:
        return list(dict.fromkeys(u.episode_id for u in self.evidence if u.episode_id))


@dataclass(frozen=True)
class LineageEdge:
    """One SUPERSEDES or MERGED_FROM edge: `source` superseded / was merged from `target` at `at`."""

    type: str
    source_id: str
    target_id: str
    at: datetime | None
    kind: str | None
    reason: str | None
    by: str | None


@dataclass(frozen=True)
class Version:
    id: str
    text: str | None
    status: str | None
    valid_from: datetime | None
    valid_to: datetime | None


@dataclass
class Provenance:
    """Where a fact / procedure came from, as of a date: evidence -> episode -> source, and its lineage.

    `version_at` is the id of the version in its lineage that was valid at `as_of` (None if none was);
    `superseded_by` / `supersedes` / `merged_into` / `merged_from` only count edges dated by `as_of`.
    """

    id: str
    kind: str
    text: str
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    author: str | None
    event_at: datetime | None
    evidence: list[EvidenceUnit]
    lineage: list[LineageEdge]
    versions: list[Version]
    version_at: str | None
    superseded_by: list[str]
    supersedes: list[str]
    merged_into: list[str]
    merged_from: list[str]
    as_of: datetime
    known_at: datetime
