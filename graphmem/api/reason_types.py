"""GraphQL types of the `reason` query: guidance compressed from recalled memory within a token budget, the
items it drew on with their provenance, and the memory tokens it costs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from graphmem.api.memory_types import KIND_LABELS, EvidenceUnit, load_node
from graphmem.api.nodes import ApiInfo, Episode, Versioned
from graphmem.api.scope import ReadScope


@strawberry.type(
    description="An item the guidance drew on: a fact or procedure with the evidence units it rests on, an "
    "evidence unit (a turn, step or document), a related document, or a whole episode"
)
class ReasonItem:
    node_id: str
    kind: str = strawberry.field(description="semantic | procedural | episodic | episode")
    text: str = strawberry.field(description="The item's text (an episode: its goal or session id)")
    event_at: datetime | None
    author: str | None
    status: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    episode_id: str | None
    relation: str | None = strawberry.field(
        description="For a related document: supersedes | superseded_by | thread (null for a hit)"
    )
    evidence: list[EvidenceUnit] = strawberry.field(
        description="The evidence units it rests on, as of asOf (a unit or document is its own evidence)"
    )
    source_ids: list[str] = strawberry.field(description="The episodes (sessions, trajectories) its evidence is from")
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The graph node: Semantic, Procedural or Episodic (null for an episode)")
    async def node(self, info: ApiInfo) -> Versioned | None:
        if self.kind == "episode":
            return None
        return await load_node(info, KIND_LABELS.get(self.kind, "Semantic"), self.node_id, self.scope)

    @strawberry.field(description="The Episode, for an episode item (else null)")
    async def episode(self, info: ApiInfo) -> Episode | None:
        return await load_node(info, "Episode", self.node_id, self.scope) if self.kind == "episode" else None

    @classmethod
    def of(cls, item: Any, scope: ReadScope) -> ReasonItem:
        evidence = [
            EvidenceUnit(node_id=u.id, text=u.text, event_at=u.event_at, author=u.author, seq=u.seq,
                         source=u.source, episode_id=u.episode_id, session_id=u.session_id,
                         episode_goal=u.episode_goal, scope=scope)
            for u in item.evidence
        ]  # fmt: skip
        return cls(
            node_id=item.id, kind=item.kind, text=item.text, event_at=item.event_at, author=item.author,
            status=item.status, valid_from=item.valid_from, valid_to=item.valid_to, episode_id=item.episode_id,
            relation=item.relation, evidence=evidence, source_ids=item.source_ids, scope=scope,
        )  # fmt: skip


@strawberry.type(
    description="Guidance for an agent's next step, compressed from recalled memory within tokenBudget tokens "
    "(an LLM writes it when one is configured, else the most relevant evidence sentences are extracted)"
)
class ReasonResult:
    guidance: str = strawberry.field(description="At most tokenBudget tokens, dates and authors kept")
    used_llm: bool = strawberry.field(description="True when an LLM wrote the guidance; false when extracted")
    guidance_tokens: int = strawberry.field(description="Memory tokens the guidance costs (<= tokenBudget)")
    evidence_tokens: int = strawberry.field(description="Tokens of the recalled evidence it was compressed from")
    token_budget: int
    query: str = strawberry.field(description="What was recalled (the planner's query)")
    as_of: datetime
    known_at: datetime
    items: list[ReasonItem] = strawberry.field(
        description="The evidence items the guidance drew on, in evidence order: the extracted sentences' items, "
        "or every item the LLM was given"
    )

    @classmethod
    def of(cls, reasoned: Any, scope: ReadScope) -> ReasonResult:
        recall = reasoned.recall
        return cls(
            guidance=reasoned.guidance,
            used_llm=reasoned.used_llm,
            guidance_tokens=reasoned.memory_tokens,
            evidence_tokens=reasoned.evidence_tokens,
            token_budget=reasoned.budget,
            query=recall.plan.query,
            as_of=recall.as_of,
            known_at=recall.known_at,
            items=[ReasonItem.of(item, scope) for item in reasoned.items],
        )
