"""GraphQL types for the answers of the memory operations (recall, tag voting, subgoal routing,
provenance, history, changes). Each carries the ids the Python API returns plus a `node` field that
loads the graph node (in the same space, through a DataLoader) so clients can keep traversing."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from graphmem.api.nodes import ApiInfo, Episode, Episodic, Semantic, Tag, Versioned, build_node
from graphmem.api.scope import ReadScope

KIND_LABELS = {"semantic": "Semantic", "procedural": "Procedural", "episodic": "Episodic"}


async def load_node(info: ApiInfo, label: str, node_id: str | None, scope: ReadScope) -> Any:
    """The node `node_id` of `label` in `scope.space` (one query per batch), or None."""
    if not node_id:
        return None
    props = await info.context.loaders.load(f"nodes_{label.lower()}", node_id, scope)
    return build_node(label, props, scope) if props else None


@strawberry.enum(description="Which memory a recall searches")
class RecallMode(Enum):
    AUTO = "auto"
    HYBRID = "hybrid"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"
    EPISODIC = "episodic"


@strawberry.enum(description="Which legs rank sources: both, or one alone for comparison")
class SourceVariant(Enum):
    HYBRID = "hybrid"
    VECTOR = "vector"
    BM25 = "bm25"


# Legs whose raw scores depend on other spaces: Lucene's BM25 statistics (document frequencies, average
# lengths) are per full-text index, and every space shares one index per label. Tenants get 1/rank instead.
RANK_ONLY_LEGS = frozenset({"lexical"})


@strawberry.type(description="How one retrieval leg saw a hit: its rank there and the leg's own score")
class LegSignal:
    leg: str
    rank: int
    score: float = strawberry.field(
        description="The leg's score (cosine, votes); for the lexical leg 1/rank, since raw BM25 scores "
        "depend on the documents of other spaces"
    )

    @classmethod
    def all_of(cls, signals: dict[str, Any]) -> list[LegSignal]:
        """One per leg, from the read path's {leg: LegSignal(rank, score)}; rank-only legs score 1/rank."""
        return [
            cls(leg=leg, rank=s.rank, score=1.0 / max(s.rank, 1) if leg in RANK_ONLY_LEGS else s.score)
            for leg, s in signals.items()
        ]


@strawberry.type(description="One component of the value model (relevance, recency, importance, return, ...)")
class ValueComponent:
    name: str
    value: float


@strawberry.type(description="One ranked memory unit with the signals that ranked it")
class RecallHit:
    node_id: str
    kind: str = strawberry.field(description="semantic | procedural | episodic")
    text: str
    score: float
    signals: list[LegSignal]
    value: list[ValueComponent]
    latest_slot: bool = strawberry.field(description="Kept by a slot reserved for the latest-dated matches")
    event_at: datetime | None
    author: str | None
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    episode_id: str | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The graph node (Semantic, Procedural or Episodic) behind this hit")
    async def node(self, info: ApiInfo) -> Versioned | None:
        return await load_node(info, KIND_LABELS.get(self.kind, "Semantic"), self.node_id, self.scope)

    @classmethod
    def of(cls, hit: Any, scope: ReadScope) -> RecallHit:
        return cls(
            node_id=hit.id,
            kind=hit.kind,
            text=hit.text,
            score=hit.score,
            signals=LegSignal.all_of(hit.signals),
            value=[ValueComponent(name=name, value=v) for name, v in hit.value.items()],
            latest_slot=hit.latest_slot,
            event_at=hit.event_at,
            author=hit.author,
            status=hit.status,
            valid_from=hit.valid_from,
            valid_to=hit.valid_to,
            episode_id=hit.episode_id,
            scope=scope,
        )


@strawberry.type(description="One unit of an episode returned whole")
class EpisodeUnit:
    node_id: str
    seq: int | None
    text: str
    event_at: datetime | None
    author: str | None


@strawberry.type(description="A session / trajectory returned whole because several of its units were hits")
class ExpandedEpisode:
    episode_id: str
    session_id: str | None
    goal: str | None
    hit_count: int
    units: list[EpisodeUnit]


@strawberry.type(
    description="A document a top hit brought into the evidence: a version it supersedes or is superseded by "
    "(relation supersedes | superseded_by), or another artefact of its thread (relation thread: close in "
    "time and content)"
)
class RelatedArtefact:
    node_id: str
    seed_id: str = strawberry.field(description="The hit that brought it")
    seed_document: str = strawberry.field(description="The document that hit rests on")
    relation: str
    score: float
    shared_tags: list[str] = strawberry.field(description="Uncommon tags the two documents share")
    text: str
    event_at: datetime | None
    author: str | None
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The Episodic document node")
    async def node(self, info: ApiInfo) -> Episodic | None:
        return await load_node(info, "Episodic", self.node_id, self.scope)

    @classmethod
    def of(cls, artefact: Any, scope: ReadScope) -> RelatedArtefact:
        return cls(
            node_id=artefact.id,
            seed_id=artefact.seed_id,
            seed_document=artefact.seed_document,
            relation=artefact.relation,
            score=artefact.score,
            shared_tags=list(artefact.shared_tags),
            text=artefact.text,
            event_at=artefact.event_at,
            author=artefact.author,
            status=artefact.status,
            valid_from=artefact.valid_from,
            valid_to=artefact.valid_to,
            scope=scope,
        )


@strawberry.type(description="One side of a contradiction: the fact, who stated it and when")
class ContradictionSide:
    node_id: str
    text: str
    author: str | None
    event_at: datetime | None
    status: str


@strawberry.type(
    description="Two active facts from different authors that disagree about one subject (earlier side first); "
    "recall shows both instead of picking one"
)
class Contradiction:
    subject: list[str] = strawberry.field(description="Tags both sides share")
    reason: str
    sides: list[ContradictionSide]

    @classmethod
    def of(cls, contradiction: Any) -> Contradiction:
        return cls(
            subject=list(contradiction.subject),
            reason=contradiction.reason,
            sides=[
                ContradictionSide(node_id=s.id, text=s.text, author=s.author, event_at=s.event_at, status=s.status)
                for s in contradiction.sides
            ],
        )


@strawberry.type(description="A recall: ranked hits, related artefacts, contradictions, and the packed evidence")
class RecallResult:
    query: str
    mode: str
    tags: list[str] = strawberry.field(description="Tags the planner read from the query")
    legs: list[str]
    as_of: datetime
    as_of_from_question: bool = strawberry.field(
        description="True when no asOf was given and the question stated one ('as of 2023-02-19'), which "
        "bounded the recall"
    )
    known_at: datetime
    hits: list[RecallHit]
    evidence: str = strawberry.field(
        description="Hits in rank order, each followed by the artefacts it brought, each prefixed by date and "
        "author, within the character (and token) budget"
    )
    evidence_tokens: int
    evidence_items: int = strawberry.field(description="How many hits / artefacts / episodes fit the budget")
    evidence_chars: int
    evidence_truncated: bool = strawberry.field(description="True when the budget cut the evidence short")
    episodes: list[ExpandedEpisode]
    related: list[RelatedArtefact]
    contradictions: list[Contradiction]

    @classmethod
    def of(cls, result: Any, scope: ReadScope) -> RecallResult:
        return cls(
            query=result.plan.query,
            mode=result.plan.mode,
            tags=list(result.plan.tags),
            legs=list(result.legs),
            as_of=result.as_of,
            as_of_from_question=result.as_of_from_question,
            known_at=result.known_at,
            hits=[RecallHit.of(h, scope) for h in result.hits],
            evidence=result.evidence,
            evidence_tokens=result.evidence_tokens,
            evidence_items=result.evidence_items,
            evidence_chars=result.evidence_chars,
            evidence_truncated=result.evidence_truncated,
            related=[RelatedArtefact.of(r, scope) for r in result.related],
            contradictions=[Contradiction.of(c) for c in result.contradictions],
            episodes=[
                ExpandedEpisode(
                    episode_id=e.episode_id,
                    session_id=e.session_id,
                    goal=e.goal,
                    hit_count=e.hit_count,
                    units=[
                        EpisodeUnit(node_id=u.id, seq=u.seq, text=u.text, event_at=u.event_at, author=u.author)
                        for u in e.units
                    ],
                )
                for e in result.episodes
            ],
        )


@strawberry.type(description="A Tag a query tag matched: exactly (normal form) or fuzzily (tag vectors)")
class TagMatch:
    tag_id: str
    name: str
    query_tag: str
    match: str = strawberry.field(description="exact | fuzzy")
    similarity: float
    weight: float = strawberry.field(description="Vote weight: exact x5, fuzzy x1 by default")
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The Tag node")
    async def tag(self, info: ApiInfo) -> Tag | None:
        return await load_node(info, "Tag", self.tag_id, self.scope)


@strawberry.type(description="A fact ranked by tag votes, with the matches that voted for it")
class VotedFact:
    node_id: str
    text: str
    score: float
    votes: float = strawberry.field(
        description="Vote total: each voting tag's weight / ln(1 + the number of facts it tags), plus the dense "
        "bonus when it applied"
    )
    dense_bonus: float = strawberry.field(description="Vote weight beyond the tag matches: the dense-similarity bonus")
    tag_count: int
    event_at: datetime | None
    valid_from: datetime | None
    valid_to: datetime | None
    matches: strawberry.Private[list[TagMatch]]
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="Which tag matches voted for this fact (exact or fuzzy, with weights)")
    async def voted_by(self, info: ApiInfo) -> list[TagMatch]:
        tags = await info.context.loaders.load("semantic_tags", self.node_id, self.scope)
        tag_ids = {t["id"] for t in tags or []}
        return [m for m in self.matches if m.tag_id in tag_ids]

    @strawberry.field(description="The Semantic node")
    async def node(self, info: ApiInfo) -> Semantic | None:
        return await load_node(info, "Semantic", self.node_id, self.scope)


@strawberry.type(
    description="A document or an Episode (session, trajectory) ranked by its units' hits: each leg ranks it by "
    "its best unit, and BM25 re-scores the top sources on their whole text"
)
class RankedSource:
    node_id: str = strawberry.field(description="The document's Episodic id, or the Episode's id")
    kind: str = strawberry.field(description="document | episode")
    score: float
    signals: list[LegSignal]
    unit_ids: list[str] = strawberry.field(description="Its units that the legs found, best first")
    event_at: datetime | None
    session_id: str | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The document's Episodic node (null for an Episode)")
    async def document(self, info: ApiInfo) -> Episodic | None:
        return await load_node(info, "Episodic", self.node_id, self.scope) if self.kind == "document" else None

    @strawberry.field(description="The Episode (null for a document)")
    async def episode(self, info: ApiInfo) -> Episode | None:
        return await load_node(info, "Episode", self.node_id, self.scope) if self.kind == "episode" else None

    @classmethod
    def of(cls, hit: Any, scope: ReadScope) -> RankedSource:
        return cls(
            node_id=hit.id,
            kind=hit.kind,
            score=hit.score,
            signals=LegSignal.all_of(hit.signals),
            unit_ids=list(hit.unit_ids),
            event_at=hit.event_at,
            session_id=hit.session_id,
            scope=scope,
        )


@strawberry.type(description="Facts ranked by tag votes alone")
class TagVoteResult:
    query_tags: list[str]
    matches: list[TagMatch]
    facts: list[VotedFact]

    @classmethod
    def of(cls, result: Any, scope: ReadScope) -> TagVoteResult:
        matches = [
            TagMatch(tag_id=m.id, name=m.name, query_tag=m.query_tag, match=m.match, similarity=m.similarity,
                     weight=m.weight, scope=scope)
            for m in result.matches
        ]  # fmt: skip
        facts = [
            VotedFact(
                node_id=h.id, text=h.text, score=h.score, votes=h.value.get("votes", 0.0),
                dense_bonus=h.value.get("dense_bonus", 0.0), tag_count=int(h.value.get("tag_count", 0)),
                event_at=h.event_at, valid_from=h.valid_from, valid_to=h.valid_to, matches=matches, scope=scope,
            )
            for h in result.facts
        ]  # fmt: skip
        return cls(query_tags=list(result.query_tags), matches=matches, facts=facts)


@strawberry.type(description="One unit of evidence behind a fact or procedure, with its episode")
class EvidenceUnit:
    node_id: str
    text: str
    event_at: datetime | None
    author: str | None
    seq: int | None
    source: str | None
    episode_id: str | None
    session_id: str | None
    episode_goal: str | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The Episodic node")
    async def node(self, info: ApiInfo) -> Episodic | None:
        return await load_node(info, "Episodic", self.node_id, self.scope)

    @strawberry.field(description="The Episode (source) it belongs to")
    async def episode(self, info: ApiInfo) -> Episode | None:
        return await load_node(info, "Episode", self.episode_id, self.scope)


@strawberry.type(description="A SUPERSEDES or MERGED_FROM edge: source superseded / merged from target")
class LineageEdge:
    type: str
    source_id: str
    target_id: str
    at: datetime | None
    kind: str | None
    reason: str | None
    by: str | None


@strawberry.type(description="One version in a lineage")
class LineageVersion:
    node_id: str
    text: str | None
    status: str | None
    valid_from: datetime | None
    valid_to: datetime | None


@strawberry.type(description="Where a fact or procedure came from, as of a date: evidence, episodes, lineage")
class Provenance:
    node_id: str
    kind: str
    text: str
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    author: str | None
    event_at: datetime | None
    evidence: list[EvidenceUnit]
    lineage: list[LineageEdge] = strawberry.field(description="Edges dated by asOf (later ones not yet there)")
    versions: list[LineageVersion]
    version_at: str | None = strawberry.field(description="The version of the lineage valid at asOf")
    superseded_by: list[str]
    supersedes: list[str]
    merged_into: list[str]
    merged_from: list[str]
    as_of: datetime
    known_at: datetime
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The graph node itself")
    async def node(self, info: ApiInfo) -> Versioned | None:
        return await load_node(info, KIND_LABELS.get(self.kind, "Semantic"), self.node_id, self.scope)

    @classmethod
    def of(cls, p: Any, scope: ReadScope) -> Provenance:
        return cls(
            node_id=p.id, kind=p.kind, text=p.text, status=p.status, valid_from=p.valid_from,
            valid_to=p.valid_to, author=p.author, event_at=p.event_at,
            evidence=[
                EvidenceUnit(node_id=e.id, text=e.text, event_at=e.event_at, author=e.author, seq=e.seq,
                             source=e.source, episode_id=e.episode_id, session_id=e.session_id,
                             episode_goal=e.episode_goal, scope=scope)
                for e in p.evidence
            ],
            lineage=[
                LineageEdge(type=e.type, source_id=e.source_id, target_id=e.target_id, at=e.at, kind=e.kind,
                            reason=e.reason, by=e.by)
                for e in p.lineage
            ],
            versions=[
                LineageVersion(node_id=v.id, text=v.text, status=v.status, valid_from=v.valid_from,
                               valid_to=v.valid_to)
                for v in p.versions
            ],
            version_at=p.version_at, superseded_by=list(p.superseded_by), supersedes=list(p.supersedes),
            merged_into=list(p.merged_into), merged_from=list(p.merged_from), as_of=p.as_of,
            known_at=p.known_at, scope=scope,
        )  # fmt: skip


@strawberry.type(description="A lineage edge from a newer node to an older one")
class VersionLink:
    type: str = strawberry.field(description="SUPERSEDES | MERGED_FROM")
    newer_id: str
    older_id: str
    at: datetime | None
    recorded_at: datetime | None
    kind: str | None
    reason: str | None
    by: str | None

    @classmethod
    def of(cls, link: Any) -> VersionLink:
        return cls(type=link.type, newer_id=link.newer_id, older_id=link.older_id, at=link.at,
                   recorded_at=link.recorded_at, kind=link.kind, reason=link.reason, by=link.by)  # fmt: skip


@strawberry.type(description="One version in a history, with valid time and record time")
class HistoryVersion:
    node_id: str
    label: str
    text: str | None
    status: str
    author: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    credibility: float | None


@strawberry.type(description="The whole version chain around a node, oldest first")
class History:
    node_id: str
    versions: list[HistoryVersion]
    links: list[VersionLink]
    current: list[HistoryVersion] = strawberry.field(description="Versions still valid and active")

    @classmethod
    def of(cls, h: Any) -> History:
        def version(v: Any) -> HistoryVersion:
            return HistoryVersion(
                node_id=v.id, label=v.label, text=v.text, status=v.status, author=v.author,
                valid_from=v.valid_from, valid_to=v.valid_to, recorded_at=v.recorded_at,
                expired_at=v.expired_at, credibility=v.credibility,
            )  # fmt: skip

        return cls(
            node_id=h.id,
            versions=[version(v) for v in h.versions],
            links=[VersionLink.of(link) for link in h.links],
            current=[version(v) for v in h.current],
        )


@strawberry.type(description="One change in a window: added, superseded or merged")
class Change:
    change: str = strawberry.field(description="added | superseded | merged")
    at: datetime | None
    recorded_at: datetime | None
    node_id: str
    label: str
    text: str | None
    by: str | None
    other_id: str | None = strawberry.field(description="The replaced version, or a merge source")
    kind: str | None
    reason: str | None

    @classmethod
    def of(cls, c: Any) -> Change:
        return cls(change=c.change, at=c.at, recorded_at=c.recorded_at, node_id=c.id, label=c.label,
                   text=c.text, by=c.by, other_id=c.other_id, kind=c.kind, reason=c.reason)  # fmt: skip
