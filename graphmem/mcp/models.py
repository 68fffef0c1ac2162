"""What the MCP tools take and give: typed inputs (snake_case, dates as ISO 8601 text) and result models that
mirror the GraphQL selections of `graphmem.Client` (camelCase on the wire, as in `schema.graphql`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from graphmem.errors import InvalidInput
from graphmem.timeutil import parse_time

ISO_FORMAT = "ISO 8601: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC when no offset is given)"


def _iso(value: str) -> str:
    try:
        return parse_time("date", value).isoformat()
    except InvalidInput as exc:
        raise ValueError(exc.message) from None


IsoTime = Annotated[str, AfterValidator(_iso), Field(examples=["2024-06-01", "2024-06-01T09:00:00Z"])]
"""A date or date-time as ISO 8601 text, normalised to UTC (`2024-06-01` -> `2024-06-01T00:00:00+00:00`)."""


# --- inputs ---


class DocumentIn(BaseModel):
    """One dated document for `remember_documents`."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="The document, stored whole")
    id: str | None = Field(None, description="Stable id (default: derived from the text)")
    author: str | None = Field(None, description="Who wrote it")
    event_at: IsoTime | None = Field(None, description=f"When it was written, {ISO_FORMAT} (default now)")
    source: str | None = Field(None, description="Where it came from (file, URL, channel)")
    supersedes: list[str] | None = Field(None, description="Ids of documents this one replaces")
    metadata: dict[str, Any] | None = Field(None, description="Any JSON object, kept with the document")
    importance: float | None = Field(
        None, description="Your weight in [0, 1] (default 1): scales the importance of its facts in recall"
    )

    def to_graphql(self) -> dict[str, Any]:
        return {to_camel(name): value for name, value in self.model_dump(exclude_none=True).items()}


class StepIn(BaseModel):
    """One step of a trajectory (action and observation) or one chat turn (author and observation)."""

    model_config = ConfigDict(extra="forbid")

    action: str | None = Field(None, description="What the agent did")
    observation: str | None = Field(None, description="What came back (or the turn's words)")
    at: IsoTime | None = Field(None, description=f"When, {ISO_FORMAT}")
    author: str | None = Field(None, description="Speaker of a chat turn")
    reward: float | None = Field(None, description="Reward of this step, if known")

    def to_graphql(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


# --- results ---


class Result(BaseModel):
    """Base of the tool results: read from the GraphQL payload, written with its camelCase names."""

    model_config = ConfigDict(
        alias_generator=to_camel, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )


class LabelCount(Result):
    label: str
    count: int


class Stored(Result):
    """What an ingest stored: ids in input order and counts by label."""

    ids: list[str | None]
    created: list[LabelCount]
    relationships: int = 0
    skipped: int
    failed: int


class EpisodeStored(Result):
    """The stored episode's id and what compiling it created."""

    episode_id: str | None
    created: list[LabelCount]
    skipped: bool


class LegSignal(Result):
    leg: str
    rank: int
    score: float


class ValueComponent(Result):
    name: str
    value: float


class Hit(Result):
    """One ranked memory unit (semantic fact, procedure or episodic evidence) with what ranked it."""

    node_id: str
    kind: str
    text: str
    score: float
    event_at: str | None = None
    author: str | None = None
    status: str
    valid_from: str | None = None
    valid_to: str | None = None
    episode_id: str | None = None
    latest_slot: bool = False
    signals: list[LegSignal] = []
    value: list[ValueComponent] = []


class EpisodeUnit(Result):
    node_id: str
    seq: int | None = None
    text: str
    event_at: str | None = None
    author: str | None = None


class ExpandedEpisode(Result):
    episode_id: str
    session_id: str | None = None
    goal: str | None = None
    hit_count: int
    units: list[EpisodeUnit]


class RelatedArtefact(Result):
    """A document a top hit brought in: a version it supersedes or is superseded by, or one of its thread."""

    node_id: str
    seed_id: str
    seed_document: str
    relation: str
    score: float
    shared_tags: list[str]
    text: str
    event_at: str | None = None
    author: str | None = None
    status: str
    valid_from: str | None = None
    valid_to: str | None = None


class ContradictionSide(Result):
    node_id: str
    text: str
    author: str | None = None
    event_at: str | None = None
    status: str


class Contradiction(Result):
    """Two active facts by different authors that disagree; both are shown, none is picked."""

    subject: list[str]
    reason: str
    sides: list[ContradictionSide]


class Recall(Result):
    """Ranked hits, related artefacts, contradictions and the packed evidence with its budget figures."""

    query: str
    mode: str
    tags: list[str]
    legs: list[str]
    as_of: str
    as_of_from_question: bool
    known_at: str
    hits: list[Hit]
    evidence: str
    evidence_tokens: int
    evidence_items: int
    evidence_chars: int
    evidence_truncated: bool
    episodes: list[ExpandedEpisode]
    related: list[RelatedArtefact]
    contradictions: list[Contradiction]


class ReasonEvidence(Result):
    node_id: str
    text: str
    event_at: str | None = None
    author: str | None = None
    episode_id: str | None = None
    source: str | None = None


class ReasonItem(Result):
    """A memory item the guidance drew on, with the evidence it rests on."""

    node_id: str
    kind: str
    text: str
    event_at: str | None = None
    author: str | None = None
    status: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    episode_id: str | None = None
    relation: str | None = None
    source_ids: list[str] = []
    evidence: list[ReasonEvidence] = []


class Reasoned(Result):
    """Guidance within the token budget, the items it used and the memory tokens it costs."""

    guidance: str
    used_llm: bool
    guidance_tokens: int
    evidence_tokens: int
    token_budget: int
    as_of: str
    known_at: str
    items: list[ReasonItem]


class TagMatch(Result):
    tag_id: str
    name: str
    query_tag: str
    match: str
    similarity: float
    weight: float


class VotedFact(Result):
    node_id: str
    text: str
    score: float
    votes: float
    dense_bonus: float
    tag_count: int
    event_at: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    voted_by: list[TagMatch]


class TagVote(Result):
    """Facts ranked by tag votes alone, with the query tags and the tags they matched."""

    query_tags: list[str]
    matches: list[TagMatch]
    facts: list[VotedFact]


class RoutedProcedures(Result):
    """Procedures for a subgoal, best first by the value model (`value` shows its components)."""

    subgoal: str
    procedures: list[Hit]


class EvidenceUnit(Result):
    node_id: str
    text: str
    event_at: str | None = None
    author: str | None = None
    seq: int | None = None
    source: str | None = None
    episode_id: str | None = None
    session_id: str | None = None
    episode_goal: str | None = None


class LineageEdge(Result):
    type: str
    source_id: str
    target_id: str
    at: str | None = None
    kind: str | None = None
    reason: str | None = None
    by: str | None = None


class LineageVersion(Result):
    node_id: str
    text: str | None = None
    status: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None


class Provenance(Result):
    """A fact's or procedure's evidence, episodes and version lineage as of a date."""

    node_id: str
    kind: str
    text: str
    status: str
    valid_from: str | None = None
    valid_to: str | None = None
    author: str | None = None
    event_at: str | None = None
    evidence: list[EvidenceUnit]
    lineage: list[LineageEdge]
    versions: list[LineageVersion]
    version_at: str | None = None
    superseded_by: list[str]
    supersedes: list[str]
    merged_into: list[str]
    merged_from: list[str]
    as_of: str
    known_at: str


class HistoryVersion(Result):
    node_id: str
    label: str
    text: str | None = None
    status: str
    author: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    recorded_at: str | None = None
    expired_at: str | None = None
    credibility: float | None = None


class VersionLink(Result):
    type: str
    newer_id: str
    older_id: str
    at: str | None = None
    recorded_at: str | None = None
    kind: str | None = None
    reason: str | None = None
    by: str | None = None


class History(Result):
    """The whole version chain around a node, oldest first, and which versions are current."""

    node_id: str
    versions: list[HistoryVersion]
    links: list[VersionLink]
    current: list[HistoryVersion]


class Change(Result):
    change: str
    at: str | None = None
    recorded_at: str | None = None
    node_id: str
    label: str
    text: str | None = None
    by: str | None = None
    other_id: str | None = None
    kind: str | None = None
    reason: str | None = None


class Changes(Result):
    """What was added, superseded or merged with valid time in [since, until)."""

    since: str
    until: str
    changes: list[Change]


class Supersession(Result):
    """The link written (created false: it already existed)."""

    created: bool
    new_id: str | None = None
    old_id: str | None = None


class Erasure(Result):
    """What an erase removed, the AuditRecord it wrote, and whether it completed."""

    audit_id: str | None = None
    removed: list[LabelCount]
    reopened: list[str]
    completed: bool


class Outcome(Result):
    """The procedure's running mean return and use count after this outcome."""

    procedure_id: str | None = None
    return_: float | None = Field(None, alias="return")
    uses: int | None = None
