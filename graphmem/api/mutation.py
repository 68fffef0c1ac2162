"""Mutations: each takes a single `input` and returns a payload whose `userErrors` carry expected failures
(bad input, unknown ids, conflicts), named by input field. A missing key, a key without the scope
(write; admin for forget) or the space, and a store outage are GraphQL errors instead: nothing ran."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON

from graphmem.api.errors import UserError, renamed, user_errors
from graphmem.api.limits import check_batch, check_text
from graphmem.api.memory_roots import local_id
from graphmem.api.memory_types import load_node
from graphmem.api.nodes import ApiInfo, Procedural
from graphmem.api.scope import ReadScope, check_space
from graphmem.errors import Forbidden, GraphmemError, InvalidInput, StoreUnavailable

T = TypeVar("T")


async def attempt(
    info: ApiInfo, scope_name: str, space: str, work: Callable[[], T], renames: dict[str, str] | None = None
) -> tuple[T | None, list[UserError]]:
    """Check the key, run `work` in the thread pool; domain errors become userErrors."""
    check_space(space, "input.space")
    info.context.require(scope_name, space)
    try:
        return await run_in_threadpool(work), []
    except (StoreUnavailable, Forbidden):
        raise
    except GraphmemError as exc:
        return None, user_errors(renamed(exc, renames))


def authorize(info: ApiInfo, scope_name: str, space: str) -> None:
    """Before anything else: a key with `scope_name` on `space` (a GraphQL error otherwise)."""
    check_space(space, "input.space")
    info.context.require(scope_name, space)


@strawberry.type(description="How many nodes of one label a write created")
class LabelCount:
    label: str
    count: int


def _counts(counts: dict[str, int]) -> list[LabelCount]:
    return [LabelCount(label=label, count=n) for label, n in counts.items() if n]


@strawberry.input(description="One dated document, stored whole")
class DocumentInput:
    text: str
    id: str | None = strawberry.field(default=None, description="Stable id (default: derived from the text)")
    author: str | None = None
    event_at: datetime | None = strawberry.field(default=None, description="When it was written (default now)")
    source: str | None = None
    supersedes: list[str] | None = strawberry.field(default=None, description="Ids of documents it replaces")
    metadata: JSON | None = None
    importance: float | None = strawberry.field(
        default=None, description="Caller's weight in [0, 1] (default 1): scales the importance of its facts"
    )


@strawberry.input
class IngestDocumentsInput:
    space: str
    documents: list[DocumentInput]
    strict: bool = strawberry.field(
        default=False, description="Reject the whole batch on the first bad document (default: store the rest)"
    )


@strawberry.type(description="What an ingest stored: ids in input order (null where rejected) and counts")
class IngestPayload:
    ids: list[str | None]
    created: list[LabelCount]
    relationships: int
    skipped: int = strawberry.field(description="Exact repeats, already stored")
    failed: int
    user_errors: list[UserError]


def _ingest_payload(summary: Any, errors: list[UserError], renames: dict[str, str]) -> IngestPayload:
    if summary is None:
        return IngestPayload(ids=[], created=[], relationships=0, skipped=0, failed=0, user_errors=errors)
    rejected = [UserError(field=renamed(InvalidInput(e.field, e.message), renames).field,  # type: ignore[attr-defined]
                          code="INVALID_INPUT", message=e.message) for e in summary.errors]  # fmt: skip
    return IngestPayload(
        ids=list(summary.ids),
        created=_counts(summary.created),
        relationships=summary.relationships,
        skipped=summary.skipped,
        failed=summary.failed,
        user_errors=errors + rejected,
    )


@strawberry.input(description="One step of a trajectory (action, observation) or one chat turn (author, text)")
class StepInput:
    action: str | None = None
    observation: str | None = strawberry.field(default=None, description="What came back (or the turn's words)")
    at: datetime | None = None
    author: str | None = strawberry.field(default=None, description="Speaker of a chat turn")
    reward: float | None = None


@strawberry.input
class IngestEpisodeInput:
    space: str
    goal: str
    steps: list[StepInput]
    id: str | None = None
    session_id: str | None = None
    started_at: datetime | None = None
    outcome: float | None = strawberry.field(default=None, description="How the episode went (e.g. 0..1)")
    kind: str | None = strawberry.field(default=None, description="trajectory (default) | chat")
    source: str | None = None


@strawberry.type
class IngestEpisodePayload:
    episode_id: str | None
    created: list[LabelCount]
    skipped: bool = strawberry.field(description="The same episode was already stored")
    user_errors: list[UserError]


@strawberry.input
class SupersedeInput:
    space: str
    new_id: str = strawberry.field(description="The newer version (global id or nodeId)")
    old_id: str = strawberry.field(description="The version it replaces")
    at: datetime = strawberry.field(description="When the replacement took effect (valid time)")
    reason: str | None = None
    by: str | None = None


@strawberry.type
class SupersedePayload:
    created: bool = strawberry.field(description="False when the same link already existed")
    new_id: str | None
    old_id: str | None
    user_errors: list[UserError]


@strawberry.input
class ConsolidateInput:
    space: str
    dry_run: bool = strawberry.field(default=False, description="Classify and report, write nothing")


@strawberry.type(description="What one consolidation pass saw and did (it never deletes)")
class ConsolidationReport:
    pairs_seen: int
    conflicts: int
    restatements: int
    unrelated: int
    superseded: int
    merged: int
    merged_nodes: int
    skipped: int
    classifier: str
    dry_run: bool
    elapsed_ms: float


@strawberry.type
class ConsolidatePayload:
    report: ConsolidationReport | None
    user_errors: list[UserError]


@strawberry.input
class RecordOutcomeInput:
    space: str
    procedure_id: str = strawberry.field(description="The Procedural used (global id or nodeId)")
    reward: float = strawberry.field(
        description="How it went, between -1000000 and 1000000; the procedure's return becomes the running mean"
    )


@strawberry.type
class RecordOutcomePayload:
    procedure_id: str | None
    return_value: float | None = strawberry.field(name="return")
    uses: int | None
    user_errors: list[UserError]
    space: strawberry.Private[str]

    @strawberry.field(description="The procedure after the update")
    async def procedure(self, info: ApiInfo) -> Procedural | None:
        if not self.procedure_id:
            return None
        return await load_node(info, "Procedural", self.procedure_id, ReadScope.resolve(self.space))


@strawberry.input(description="What to erase: exactly one of id (or episodeId), author, all")
class ForgetInput:
    space: str
    id: str | None = strawberry.field(default=None, description="A document, evidence unit or episode to erase")
    episode_id: str | None = strawberry.field(default=None, description="Older name of `id`: an episode")
    author: str | None = strawberry.field(default=None, description="Erase every record this author wrote here")
    all: bool = strawberry.field(default=False, description="Erase the whole space (audit records stay)")
    reason: str | None = strawberry.field(default=None, description="Why (goes into the audit record)")


@strawberry.type
class ForgetPayload:
    audit_id: str | None = strawberry.field(description="Id of the AuditRecord written for this erase")
    removed: list[LabelCount]
    reopened: list[str] = strawberry.field(description="Versions made current again by the erase")
    completed: bool = strawberry.field(default=False, description="False: stopped midway; the same call resumes")
    user_errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Store dated documents whole (write scope)")
    async def ingest_documents(self, info: ApiInfo, input: IngestDocumentsInput) -> IngestPayload:
        authorize(info, "write", input.space)
        settings = info.context.settings
        renames = {"documents": "input.documents"}
        try:
            check_batch(settings, "input.documents", input.documents)
            for n, doc in enumerate(input.documents):
                check_text(settings, f"input.documents[{n}].text", doc.text)
        except InvalidInput as exc:
            return _ingest_payload(None, user_errors(exc), renames)
        records = [
            {key: value for key, value in {
                "text": d.text, "id": d.id, "author": d.author, "event_at": d.event_at, "source": d.source,
                "supersedes": d.supersedes, "metadata": d.metadata, "importance": d.importance}.items()
             if value is not None}
            for d in input.documents
        ]  # fmt: skip
        memory = info.context.services.memory
        summary, errors = await attempt(
            info, "write", input.space,
            lambda: memory.ingest_documents(input.space, records, strict=input.strict), renames,
        )  # fmt: skip
        return _ingest_payload(summary, errors, renames)

    @strawberry.mutation(description="Compile one trajectory or chat session into the graph (write scope)")
    async def ingest_episode(self, info: ApiInfo, input: IngestEpisodeInput) -> IngestEpisodePayload:
        authorize(info, "write", input.space)
        settings = info.context.settings
        renames = {"episodes[0]": "input"}
        try:
            check_text(settings, "input.goal", input.goal)
            check_batch(settings, "input.steps", input.steps)
            for n, step in enumerate(input.steps):
                check_text(settings, f"input.steps[{n}].action", step.action, required=False)
                check_text(settings, f"input.steps[{n}].observation", step.observation, required=False)
        except InvalidInput as exc:
            return IngestEpisodePayload(episode_id=None, created=[], skipped=False, user_errors=user_errors(exc))
        record: dict[str, Any] = {
            "goal": input.goal, "id": input.id, "session_id": input.session_id, "started_at": input.started_at,
            "outcome": input.outcome, "kind": input.kind, "source": input.source,
            "steps": [{"action": s.action, "observation": s.observation, "at": s.at, "author": s.author,
                       "reward": s.reward} for s in input.steps],
        }  # fmt: skip
        memory = info.context.services.memory
        summary, errors = await attempt(
            info, "write", input.space, lambda: memory.ingest_episodes(input.space, [record], strict=True), renames
        )
        if summary is None:
            return IngestEpisodePayload(episode_id=None, created=[], skipped=False, user_errors=errors)
        return IngestEpisodePayload(
            episode_id=summary.ids[0] if summary.ids else None,
            created=_counts(summary.created),
            skipped=summary.skipped > 0,
            user_errors=[],
        )

    @strawberry.mutation(description="Link a newer version over an older one from a date (write scope)")
    async def supersede(self, info: ApiInfo, input: SupersedeInput) -> SupersedePayload:
        authorize(info, "write", input.space)
        try:
            new_id, old_id = local_id(input.new_id, "input.newId"), local_id(input.old_id, "input.oldId")
        except InvalidInput as exc:
            return SupersedePayload(created=False, new_id=None, old_id=None, user_errors=user_errors(exc))
        memory = info.context.services.memory
        created, errors = await attempt(
            info, "write", input.space,
            lambda: memory.supersede(input.space, new_id, old_id, input.at, reason=input.reason, by=input.by),
            {"new_id": "input.newId", "old_id": "input.oldId", "at": "input.at", "reason": "input.reason"},
        )  # fmt: skip
        if errors:
            return SupersedePayload(created=False, new_id=None, old_id=None, user_errors=errors)
        return SupersedePayload(created=bool(created), new_id=new_id, old_id=old_id, user_errors=[])

    @strawberry.mutation(description="One consolidation pass: conflicts superseded, restatements merged (write)")
    async def consolidate(self, info: ApiInfo, input: ConsolidateInput) -> ConsolidatePayload:
        authorize(info, "write", input.space)
        memory = info.context.services.memory
        report, errors = await attempt(
            info, "write", input.space, lambda: memory.consolidate(input.space, dry_run=input.dry_run)
        )
        if report is None:
            return ConsolidatePayload(report=None, user_errors=errors)
        fields = {name: getattr(report, name) for name in ConsolidationReport.__annotations__}
        return ConsolidatePayload(report=ConsolidationReport(**fields), user_errors=[])

    @strawberry.mutation(description="Feedback on a procedure's use: return becomes the running mean (write)")
    async def record_outcome(self, info: ApiInfo, input: RecordOutcomeInput) -> RecordOutcomePayload:
        authorize(info, "write", input.space)
        try:
            procedure_id = local_id(input.procedure_id, "input.procedureId")
        except InvalidInput as exc:
            return RecordOutcomePayload(procedure_id=None, return_value=None, uses=None,
                                        user_errors=user_errors(exc), space=input.space)  # fmt: skip
        memory = info.context.services.memory
        row, errors = await attempt(
            info, "write", input.space, lambda: memory.record_outcome(input.space, procedure_id, input.reward),
            {"procedural_id": "input.procedureId", "reward": "input.reward"},
        )  # fmt: skip
        if row is None:
            return RecordOutcomePayload(procedure_id=None, return_value=None, uses=None, user_errors=errors,
                                        space=input.space)  # fmt: skip
        return RecordOutcomePayload(procedure_id=row.get("id", procedure_id), return_value=row.get("return"),
                                    uses=row.get("uses"), user_errors=[], space=input.space)  # fmt: skip

    @strawberry.mutation(
        description="Erase a document or episode (id), an author's records or a whole space (all), with what "
        "rested only on them; audited, resumable (admin scope)"
    )
    async def forget(self, info: ApiInfo, input: ForgetInput) -> ForgetPayload:
        authorize(info, "admin", input.space)
        try:
            given = input.id if input.id is not None else input.episode_id
            field = "input.id" if input.id is not None else "input.episodeId"
            if input.id is not None and input.episode_id is not None:
                raise InvalidInput("input.id", "give id or episodeId, not both")
            target_id = local_id(given, field) if given is not None else None
            check_text(info.context.settings, "input.reason", input.reason, required=False)
        except InvalidInput as exc:
            return ForgetPayload(audit_id=None, removed=[], reopened=[], user_errors=user_errors(exc))
        principal = info.context.require("admin", input.space)  # checked above; here for the audit name
        by = f"api-key:{principal.key_id}" + (f" ({principal.name})" if principal.name else "")
        memory = info.context.services.memory
        report, errors = await attempt(
            info, "admin", input.space,
            lambda: memory.forget(input.space, target_id, by, author=input.author, all=input.all or False,
                                  reason=input.reason),
            {"id": field if target_id is not None else "input.id", "author": "input.author", "space": "input.all",
             "reason": "input.reason"},
        )  # fmt: skip
        if report is None:
            return ForgetPayload(audit_id=None, removed=[], reopened=[], user_errors=errors)
        return ForgetPayload(audit_id=report.audit_id, removed=_counts(report.removed_counts),
                             reopened=list(report.reopened), completed=report.state == "completed",
                             user_errors=[])  # fmt: skip
