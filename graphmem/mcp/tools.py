"""graphmem's MCP tools: each description says when an agent should call it; arguments are typed (dates as
ISO 8601 text) and results are structured (`graphmem.mcp.models`). A tool is one decorated function over
`Toolbox`: pick the space, call the client, validate the payload into its result model."""

# No `from __future__ import annotations`: the MCP SDK reads these signatures' types at registration.

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from graphmem.client import Client, GraphmemClientError
from graphmem.mcp.errors import client_tool_error
from graphmem.mcp.models import (
    ISO_FORMAT,
    Changes,
    DocumentIn,
    EpisodeStored,
    Erasure,
    History,
    IsoTime,
    Outcome,
    Provenance,
    Reasoned,
    Recall,
    RoutedProcedures,
    StepIn,
    Stored,
    Supersession,
    TagVote,
)

T = TypeVar("T")

SpaceArg = Annotated[
    str | None, Field(description="The space (tenant) to use; default: the server's --space / GRAPHMEM_SPACE")
]
AsOfArg = Annotated[
    IsoTime | None, Field(description=f"Valid time to read at, {ISO_FORMAT}; default now (what is true then)")
]
KnownAtArg = Annotated[
    IsoTime | None, Field(description=f"Record time, {ISO_FORMAT}; default now (what memory knew then)")
]
NodeIdArg = Annotated[str, Field(description="A nodeId from recall, remember or another tool's result")]


First = Annotated[int, Field(ge=1, description="How many results at most (the service caps it)")]


class Toolbox:
    """What every tool needs: the client, the default space, and the call that turns refusals into tool errors."""

    def __init__(self, client: Client, default_space: str | None = None) -> None:
        self.client = client
        self.default_space = default_space

    def space(self, space: str | None) -> str:
        chosen = (space or "").strip() or self.default_space
        if not chosen:
            raise ToolError(
                "space: no space given; pass `space`, or start `graphmem mcp` with --space or GRAPHMEM_SPACE"
            )
        return chosen

    def call(self, fn: Callable[..., T], *args: Any, renames: dict[str, str] | None = None, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)`; a refused request (or an unreachable service) becomes a tool error."""
        try:
            return fn(*args, **kwargs)
        except GraphmemClientError as exc:
            raise client_tool_error(exc, renames) from None


NODE_ID = {"id": "node_id"}


def register_tools(server: MCPServer[Any], gm: Toolbox) -> None:
    """Declare every tool on `server`."""
    client = gm.client

    @server.tool(
        description="Store one note or document you learned, with its author and the date it was written. Use it "
        "for a single fact or message; for a batch use remember_documents, for a task you carried out "
        f"remember_episode. event_at is {ISO_FORMAT}."
    )
    def remember(
        text: Annotated[str, Field(description="The note or document, stored whole")],
        space: SpaceArg = None,
        author: Annotated[str | None, Field(description="Who wrote or said it")] = None,
        event_at: Annotated[IsoTime | None, Field(description="When it was written (default now)")] = None,
        id: Annotated[str | None, Field(description="Stable id (default: derived from the text)")] = None,
    ) -> Stored:
        document = DocumentIn(text=text, author=author, event_at=event_at, id=id)
        payload = gm.call(
            client.ingest_documents, gm.space(space), [document.to_graphql()], renames={"documents.0": ""}
        )
        return Stored.model_validate(payload)

    @server.tool(
        description="Store a batch of dated documents (meeting notes, decisions, emails), each with an optional "
        "id, author, event_at, source, supersedes and metadata. Use it when you have several records at once; "
        "with strict=true one bad document rejects the batch."
    )
    def remember_documents(
        documents: Annotated[list[DocumentIn], Field(min_length=1, description="The documents, in order")],
        space: SpaceArg = None,
        strict: Annotated[bool, Field(description="Reject the whole batch on the first bad document")] = False,
    ) -> Stored:
        batch = [document.to_graphql() for document in documents]
        return Stored.model_validate(gm.call(client.ingest_documents, gm.space(space), batch, strict=strict))

    @server.tool(
        description="Store a task you carried out (goal, ordered steps of action and observation, outcome) so it "
        "is compiled into facts, procedures and subgoals that route_subgoal finds next time. Use it after a "
        "task ends, or kind='chat' for a conversation (steps are turns with author and observation)."
    )
    def remember_episode(
        goal: Annotated[str, Field(description="What the task was for")],
        steps: Annotated[list[StepIn], Field(min_length=1, description="The steps or turns, in order")],
        space: SpaceArg = None,
        outcome: Annotated[float | None, Field(description="How it went, e.g. 0 (failed) to 1 (succeeded)")] = None,
        kind: Annotated[Literal["trajectory", "chat"], Field(description="trajectory (default) or chat")] = (
            "trajectory"
        ),
        id: Annotated[str | None, Field(description="Stable episode id (default: derived)")] = None,
        session_id: Annotated[str | None, Field(description="The session it belongs to")] = None,
        started_at: Annotated[IsoTime | None, Field(description=f"When it started, {ISO_FORMAT}")] = None,
        source: Annotated[str | None, Field(description="Where it came from (agent name, log file)")] = None,
    ) -> EpisodeStored:
        payload = gm.call(
            client.ingest_episode, gm.space(space), goal, [step.to_graphql() for step in steps], id=id,
            session_id=session_id, started_at=started_at, outcome=outcome, kind=kind, source=source,
        )  # fmt: skip
        return EpisodeStored.model_validate(payload)

    @server.tool(
        description="Answer a question from memory: ranked hits with the signals that ranked them, the packed "
        "evidence (within budget_tokens / budget_chars), related versions and contradictions. Use it first for "
        f"any question; as_of reads what was true at a date, known_at what memory knew then ({ISO_FORMAT})."
    )
    def recall(
        query: Annotated[str, Field(description="The question, in plain words")],
        space: SpaceArg = None,
        first: First = 5,
        as_of: AsOfArg = None,
        known_at: KnownAtArg = None,
        mode: Annotated[
            Literal["AUTO", "HYBRID", "SEMANTIC", "PROCEDURAL", "EPISODIC"],
            Field(description="Which memory to search (default AUTO)"),
        ] = "AUTO",
        budget_tokens: Annotated[int | None, Field(ge=1, description="Token budget of the evidence")] = None,
        budget_chars: Annotated[int | None, Field(ge=1, description="Character budget (default 40,000)")] = None,
        related: Annotated[bool, Field(description="Bring the top hits' other versions and thread")] = True,
        recipe: Annotated[
            str, Field(description="Ranking recipe: hybrid (default), vector, bm25, tagvote, plugmem")
        ] = "hybrid",
    ) -> Recall:
        payload = gm.call(
            client.recall, gm.space(space), query, first=first, as_of=as_of, known_at=known_at, mode=mode,
            budget_tokens=budget_tokens, budget_chars=budget_chars, related=related, recipe=recipe,
        )  # fmt: skip
        return Recall.model_validate(payload)

    @server.tool(
        description="Guidance for your next step, compressed from memory within token_budget tokens, with the "
        "items it drew on and their evidence. Use it when you want advice to act on rather than raw hits; "
        f"as_of / known_at as in recall ({ISO_FORMAT})."
    )
    def reason(
        query: Annotated[str, Field(description="The goal or question, in plain words")],
        space: SpaceArg = None,
        subgoal: Annotated[str | None, Field(description="The step you are on, if any")] = None,
        state: Annotated[str | None, Field(description="Where things stand now")] = None,
        observation: Annotated[str | None, Field(description="What you just saw")] = None,
        token_budget: Annotated[
            int | None, Field(description="Most tokens the guidance may take, 16 to 4000 (default 300)")
        ] = None,
        first: First = 10,
        as_of: AsOfArg = None,
        known_at: KnownAtArg = None,
    ) -> Reasoned:
        payload = gm.call(
            client.reason, gm.space(space), query, subgoal=subgoal, state=state, observation=observation,
            token_budget=token_budget, first=first, as_of=as_of, known_at=known_at,
        )  # fmt: skip
        return Reasoned.model_validate(payload)

    @server.tool(
        description="Facts ranked by tag votes alone (entities, attributes, verbs), showing which tags matched. "
        "Use it when recall misses an exact name or code, or to see which keys a fact is filed under."
    )
    def tag_vote(
        query: Annotated[str, Field(description="The question; its tags are read from it unless tags are given")],
        space: SpaceArg = None,
        tags: Annotated[list[str] | None, Field(description="Query tags to vote with")] = None,
        first: First = 10,
        as_of: AsOfArg = None,
        known_at: KnownAtArg = None,
    ) -> TagVote:
        payload = gm.call(
            client.tag_vote, gm.space(space), query, tags=tags, first=first, as_of=as_of, known_at=known_at
        )
        return TagVote.model_validate(payload)

    @server.tool(
        description="Procedures that worked for a subgoal, best return first. Use it before a step of a task "
        "('book a meeting room') to reuse what earlier episodes learned; report back with record_outcome."
    )
    def route_subgoal(
        subgoal: Annotated[str, Field(description="The intent, in plain words")],
        space: SpaceArg = None,
        first: First = 5,
        as_of: AsOfArg = None,
        known_at: KnownAtArg = None,
    ) -> RoutedProcedures:
        hits = gm.call(client.route_subgoal, gm.space(space), subgoal, first=first, as_of=as_of, known_at=known_at)
        return RoutedProcedures.model_validate({"subgoal": subgoal, "procedures": hits})

    @server.tool(
        description="Why a fact or procedure is held: the evidence units and episodes it rests on and its version "
        f"lineage, as of a date. Use it to check a recall hit before acting on it ({ISO_FORMAT})."
    )
    def provenance(
        node_id: NodeIdArg, space: SpaceArg = None, as_of: AsOfArg = None, known_at: KnownAtArg = None
    ) -> Provenance:
        payload = gm.call(client.provenance, gm.space(space), node_id, as_of=as_of, known_at=known_at, renames=NODE_ID)
        return Provenance.model_validate(payload)

    @server.tool(
        description="The whole version chain of a fact, procedure or document, oldest first, with valid and record "
        "dates, authors and which version is current. Use it to see how one thing changed."
    )
    def history(node_id: NodeIdArg, space: SpaceArg = None) -> History:
        return History.model_validate(gm.call(client.history, gm.space(space), node_id, renames=NODE_ID))

    @server.tool(
        description="What was added, superseded or merged in a space with valid time in [since, until). Use it to "
        f"catch up on a period ('what changed in May?'); since and until are {ISO_FORMAT}."
    )
    def changes(
        since: Annotated[IsoTime, Field(description="Start of the window (included)")],
        until: Annotated[IsoTime, Field(description="End of the window (excluded)")],
        space: SpaceArg = None,
        first: First = 100,
    ) -> Changes:
        found = gm.call(client.changes, gm.space(space), since, until, first=first)
        return Changes.model_validate({"since": since, "until": until, "changes": found})

    @server.tool(
        description="Record that a newer document or fact replaces an older one from a date (valid time): recall "
        "then answers with the new one, and as_of before that date still with the old. Use it when you learn "
        f"that something changed (an office moved, a decision was reversed); at is {ISO_FORMAT}."
    )
    def supersede(
        new_id: Annotated[str, Field(description="The newer version's nodeId (or document id)")],
        old_id: Annotated[str, Field(description="The version it replaces")],
        at: Annotated[IsoTime, Field(description="When the replacement took effect")],
        space: SpaceArg = None,
        reason: Annotated[str | None, Field(description="Why (kept on the link)")] = None,
    ) -> Supersession:
        payload = gm.call(client.supersede, gm.space(space), new_id, old_id, at, reason=reason)
        return Supersession.model_validate(payload)

    @server.tool(
        description="Report how a procedure from route_subgoal worked when you used it; its return becomes the "
        "running mean of rewards, so better procedures rank first next time."
    )
    def record_outcome(
        procedure_id: Annotated[str, Field(description="The procedure's nodeId (from route_subgoal)")],
        reward: Annotated[float, Field(ge=-1_000_000, le=1_000_000, description="How it went, e.g. 0 to 1")],
        space: SpaceArg = None,
    ) -> Outcome:
        return Outcome.model_validate(gm.call(client.record_outcome, gm.space(space), procedure_id, reward))

    @server.tool(
        description="ERASE for good, audited: a document or episode (id), every record of an author, or the whole "
        "space (all); what rested only on it goes too. Use it only when told to remove data (e.g. a leaked "
        "secret); to record a change use supersede. Needs an admin key and confirm=true."
    )
    def forget(
        space: SpaceArg = None,
        id: Annotated[str | None, Field(description="A document, evidence unit or episode id")] = None,
        author: Annotated[str | None, Field(description="Erase every record this author wrote here")] = None,
        all: Annotated[bool, Field(description="Erase the whole space (audit records stay)")] = False,
        reason: Annotated[str | None, Field(description="Why (goes into the audit record)")] = None,
        confirm: Annotated[bool, Field(description="Must be true: the erase cannot be undone")] = False,
    ) -> Erasure:
        if not confirm:
            raise ToolError("confirm: forget erases data for good; call it again with confirm=true")
        payload = gm.call(client.forget, gm.space(space), id=id, author=author, all=all, reason=reason)
        return Erasure.model_validate(payload)
