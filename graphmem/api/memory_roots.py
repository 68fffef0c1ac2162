"""Query roots backed by the Python API (`MemoryGraph`): recall, reason, tagVote, routeSubgoal, provenance,
history and changes. Each checks the key (read scope, the space), validates sizes, runs the sync call in
the thread pool, and names a bad argument as the client wrote it (`k` -> `first`, `as_of` -> `asOf`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

import strawberry
from starlette.concurrency import run_in_threadpool

from graphmem.api.errors import renamed
from graphmem.api.limits import check_first, check_text
from graphmem.api.memory_types import (
    Change,
    History,
    Provenance,
    RankedSource,
    RecallHit,
    RecallMode,
    RecallResult,
    SourceVariant,
    TagVoteResult,
)
from graphmem.api.nodes import ApiInfo, parse_global_id
from graphmem.api.query import AsOf, KnownAt, Space
from graphmem.api.reason_types import ReasonResult
from graphmem.api.scope import ReadScope
from graphmem.errors import GraphmemError, InvalidInput
from graphmem.read.reasoning import MAX_GUIDANCE_TOKENS, MIN_GUIDANCE_TOKENS

T = TypeVar("T")
MAX_BUDGET_TOKENS = 100_000
MAX_BUDGET_CHARS = 1_000_000

NodeRef = Annotated[str, strawberry.argument(description="A node's global id, or its graphmem id (nodeId)")]


async def call(work: Callable[[], T], renames: dict[str, str] | None = None) -> T:
    """Run a sync Python API call off the event loop; its domain errors name GraphQL fields."""
    try:
        return await run_in_threadpool(work)
    except GraphmemError as exc:
        raise renamed(exc, renames) from None


def local_id(value: str, field: str = "id") -> str:
    """A graphmem id from a global id or a graphmem id."""
    if not value or not value.strip():
        raise InvalidInput(field, "an id is required")
    named = parse_global_id(value)
    return named.node_id if named else value.strip()


def _scope(info: ApiInfo, space: str, as_of: datetime | None, known_at: datetime | None) -> ReadScope:
    scope = ReadScope.resolve(space, as_of, known_at)
    info.context.require("read", space)
    return scope


TIME_RENAMES = {"as_of": "asOf", "known_at": "knownAt"}


@strawberry.type
class MemoryQuery:
    @strawberry.field(description="Ranked memory for a question, with per-leg signals and packed evidence")
    async def recall(
        self,
        info: ApiInfo,
        space: Space,
        query: str,
        mode: RecallMode = RecallMode.AUTO,
        first: Annotated[int | None, strawberry.argument(description="How many hits (default 10)")] = 10,
        budget_tokens: Annotated[
            int | None, strawberry.argument(description="Token budget of the packed evidence (default: none)")
        ] = None,
        budget_chars: Annotated[
            int | None,
            strawberry.argument(description="Character budget of the packed evidence (default 40,000)"),
        ] = None,
        related: Annotated[
            bool, strawberry.argument(description="Bring the top hits' versions and thread into the evidence")
        ] = True,
        as_of: AsOf = None,
        known_at: KnownAt = None,
        recipe: Annotated[
            str,
            strawberry.argument(
                description="The ranking's recipe: hybrid, vector, bm25, tagvote, plugmem, or RECIPE-no:STAGE "
                "with one refine stage switched off"
            ),
        ] = "hybrid",
    ) -> RecallResult:
        scope = _scope(info, space, as_of, known_at)
        settings = info.context.settings
        check_text(settings, "query", query)
        k = check_first(settings, first)
        if budget_tokens is not None and not 1 <= budget_tokens <= MAX_BUDGET_TOKENS:
            raise InvalidInput("budgetTokens", f"must be between 1 and {MAX_BUDGET_TOKENS}")
        if budget_chars is not None and not 100 <= budget_chars <= MAX_BUDGET_CHARS:
            raise InvalidInput("budgetChars", f"must be between 100 and {MAX_BUDGET_CHARS}")
        memory = info.context.services.memory
        result = await call(
            lambda: memory.recall(
                query, space, as_of=scope.as_of if as_of else None, known_at=scope.known_at if known_at else None,
                mode=mode.value, k=k, token_budget=budget_tokens, char_budget=budget_chars, related=related,
                recipe=recipe,
            ),
            {**TIME_RENAMES, "k": "first", "text": "query", "token_budget": "budgetTokens",
             "char_budget": "budgetChars", "variant": "recipe"},
        )  # fmt: skip
        return RecallResult.of(result, scope)

    @strawberry.field(
        description="Documents and sessions ranked by their units' hits (each leg ranks a source by its best unit; "
        "BM25 re-scores the top sources on their whole text). On a corpus of short passages this ranks evidence "
        "documents better than recall; recall's graph-aware ranking is better for organisational artefacts"
    )
    async def recall_sources(
        self,
        info: ApiInfo,
        space: Space,
        query: str,
        first: Annotated[int | None, strawberry.argument(description="How many sources (default 10)")] = 10,
        variant: SourceVariant = SourceVariant.HYBRID,
        as_of: AsOf = None,
        known_at: KnownAt = None,
    ) -> list[RankedSource]:
        scope = _scope(info, space, as_of, known_at)
        check_text(info.context.settings, "query", query)
        k = check_first(info.context.settings, first)
        memory = info.context.services.memory
        sources = await call(
            lambda: memory.recall_sources(
                query, space, as_of=scope.as_of if as_of else None, known_at=scope.known_at if known_at else None,
                k=k, variant=variant.value,
            ),
            {**TIME_RENAMES, "k": "first", "text": "query"},
        )  # fmt: skip
        return [RankedSource.of(s, scope) for s in sources]

    @strawberry.field(description="Facts ranked by tag votes: which tags matched, exact or fuzzy, dense bonus")
    async def tag_vote(
        self,
        info: ApiInfo,
        space: Space,
        query: str,
        tags: Annotated[
            list[str] | None, strawberry.argument(description="Query tags (default: read from the query)")
        ] = None,
        first: Annotated[int | None, strawberry.argument(description="How many facts (default 10)")] = 10,
        as_of: AsOf = None,
        known_at: KnownAt = None,
    ) -> TagVoteResult:
        scope = _scope(info, space, as_of, known_at)
        settings = info.context.settings
        check_text(settings, "query", query)
        k = check_first(settings, first)
        if tags is not None:
            if len(tags) > settings.api_max_first:
                raise InvalidInput("tags", f"at most {settings.api_max_first} tags")
            for n, tag in enumerate(tags):
                check_text(settings, f"tags.{n}", tag)
        memory = info.context.services.memory
        result = await call(
            lambda: memory.tag_vote(
                query, space, tags=tags, as_of=scope.as_of if as_of else None,
                known_at=scope.known_at if known_at else None, k=k,
            ),
            {**TIME_RENAMES, "k": "first", "text": "query"},
        )  # fmt: skip
        return TagVoteResult.of(result, scope)

    @strawberry.field(description="Procedures for a subgoal: nearest subgoals, ranked by the value model")
    async def route_subgoal(
        self,
        info: ApiInfo,
        space: Space,
        subgoal: str,
        first: Annotated[int | None, strawberry.argument(description="How many procedures (default 5)")] = 5,
        as_of: AsOf = None,
        known_at: KnownAt = None,
    ) -> list[RecallHit]:
        scope = _scope(info, space, as_of, known_at)
        settings = info.context.settings
        check_text(settings, "subgoal", subgoal)
        k = check_first(settings, first)
        memory = info.context.services.memory
        hits = await call(
            lambda: memory.route_subgoal(
                subgoal, space, as_of=scope.as_of if as_of else None,
                known_at=scope.known_at if known_at else None, k=k,
            ),
            {**TIME_RENAMES, "k": "first"},
        )  # fmt: skip
        return [RecallHit.of(h, scope) for h in hits]

    @strawberry.field(description="A fact's or procedure's evidence, episodes and lineage as of a date")
    async def provenance(
        self, info: ApiInfo, space: Space, id: NodeRef, as_of: AsOf = None, known_at: KnownAt = None
    ) -> Provenance:
        scope = _scope(info, space, as_of, known_at)
        node_id = local_id(id)
        memory = info.context.services.memory
        result = await call(
            lambda: memory.provenance(
                node_id, space, as_of=scope.as_of if as_of else None, known_at=scope.known_at if known_at else None
            ),
            TIME_RENAMES,
        )
        return Provenance.of(result, scope)

    @strawberry.field(description="The whole version chain around a node, oldest first")
    async def history(self, info: ApiInfo, space: Space, id: NodeRef) -> History:
        _scope(info, space, None, None)
        node_id = local_id(id)
        memory = info.context.services.memory
        return History.of(await call(lambda: memory.history(space, node_id)))

    @strawberry.field(description="What was added, superseded or merged with valid time in [since, until)")
    async def changes(
        self,
        info: ApiInfo,
        space: Space,
        since: datetime,
        until: datetime,
        first: Annotated[int | None, strawberry.argument(description="At most this many (default 100)")] = 100,
    ) -> list[Change]:
        _scope(info, space, None, None)
        limit = check_first(info.context.settings, first)
        memory = info.context.services.memory
        found: list[Any] = await call(lambda: memory.changes(space, since, until, limit=limit), {"limit": "first"})
        return [Change.of(c) for c in found]

    @strawberry.field(
        description="Guidance for an agent's next step: recall for the query (the goal) and its optional subgoal, "
        "state and observation, compressed into at most tokenBudget tokens, with the items it drew on and the "
        "memory tokens counted (PlugMem's reasoning step)"
    )
    async def reason(
        self,
        info: ApiInfo,
        space: Space,
        query: Annotated[str, strawberry.argument(description="The agent's goal or question")],
        subgoal: Annotated[str | None, strawberry.argument(description="The step the agent is on")] = None,
        state: Annotated[str | None, strawberry.argument(description="What the agent knows of its state")] = None,
        observation: Annotated[str | None, strawberry.argument(description="What the agent last observed")] = None,
        token_budget: Annotated[
            int | None,
            strawberry.argument(
                description=f"Most tokens the guidance may cost, {MIN_GUIDANCE_TOKENS} to {MAX_GUIDANCE_TOKENS} "
                "(default GRAPHMEM_READ_REASONING_TOKENS)"
            ),
        ] = None,
        first: Annotated[int | None, strawberry.argument(description="How many hits to recall (default 10)")] = 10,
        mode: RecallMode = RecallMode.AUTO,
        as_of: AsOf = None,
        known_at: KnownAt = None,
    ) -> ReasonResult:
        scope = _scope(info, space, as_of, known_at)
        settings = info.context.settings
        check_text(settings, "query", query)
        for name, text in (("subgoal", subgoal), ("state", state), ("observation", observation)):
            check_text(settings, name, text, required=False)
        k = check_first(settings, first)
        memory = info.context.services.memory
        reasoned = await call(
            lambda: memory.retrieve_and_reason(
                query, space, subgoal=subgoal, state=state, observation=observation,
                as_of=scope.as_of if as_of else None, known_at=scope.known_at if known_at else None,
                mode=mode.value, k=k, token_budget=token_budget,
            ),
            {**TIME_RENAMES, "k": "first", "goal": "query", "token_budget": "tokenBudget"},
        )  # fmt: skip
        return ReasonResult.of(reasoned, scope)
