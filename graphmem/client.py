"""`graphmem.Client` / `graphmem.AsyncClient`: typed Python access to a graphmem service over GraphQL.

Agents that do not run graphmem in-process use this: it sends the API key as `Authorization: Bearer`,
turns GraphQL errors and payload `userErrors` into `GraphmemClientError` (with the field they name), and
returns plain dicts shaped like the GraphQL selection — the schema (`schema.graphql`) is the contract.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

RECALL = """
query Recall($space: String!, $query: String!, $first: Int, $asOf: DateTime, $knownAt: DateTime, $mode: RecallMode!,
             $budgetTokens: Int, $budgetChars: Int, $related: Boolean! = true, $recipe: String! = "hybrid") {
  recall(space: $space, query: $query, first: $first, asOf: $asOf, knownAt: $knownAt, mode: $mode,
         budgetTokens: $budgetTokens, budgetChars: $budgetChars, related: $related, recipe: $recipe) {
    query mode tags legs asOf asOfFromQuestion knownAt
    hits { nodeId kind text score eventAt author status validFrom validTo episodeId latestSlot
           signals { leg rank score } }
    evidence evidenceTokens evidenceItems evidenceChars evidenceTruncated
    episodes { episodeId sessionId goal hitCount units { nodeId seq text eventAt author } }
    related { nodeId seedId seedDocument relation score sharedTags text eventAt author status validFrom validTo }
    contradictions { subject reason sides { nodeId text author eventAt status } }
  }
}
"""

REASON = """
query Reason($space: String!, $query: String!, $subgoal: String, $state: String, $observation: String,
             $tokenBudget: Int, $first: Int, $asOf: DateTime, $knownAt: DateTime) {
  reason(space: $space, query: $query, subgoal: $subgoal, state: $state, observation: $observation,
         tokenBudget: $tokenBudget, first: $first, asOf: $asOf, knownAt: $knownAt) {
    guidance usedLlm guidanceTokens evidenceTokens tokenBudget asOf knownAt
    items { nodeId kind text eventAt author status validFrom validTo episodeId relation sourceIds
            evidence { nodeId text eventAt author episodeId source } }
  }
}
"""

INGEST_DOCUMENTS = """
mutation Ingest($input: IngestDocumentsInput!) {
  ingestDocuments(input: $input) {
    ids
    created { label count }
    relationships
    skipped
    failed
    userErrors { field code message }
  }
}
"""

PROVENANCE = """
query Provenance($space: String!, $id: String!, $asOf: DateTime, $knownAt: DateTime) {
  provenance(space: $space, id: $id, asOf: $asOf, knownAt: $knownAt) {
    nodeId kind text status validFrom validTo author eventAt
    evidence { nodeId text eventAt author seq source episodeId sessionId episodeGoal }
    lineage { type sourceId targetId at kind reason by }
    versions { nodeId text status validFrom validTo }
    versionAt supersededBy supersedes mergedInto mergedFrom asOf knownAt
  }
}
"""

HISTORY = """
query History($space: String!, $id: String!) {
  history(space: $space, id: $id) {
    nodeId
    versions { nodeId label text status author validFrom validTo recordedAt expiredAt credibility }
    links { type newerId olderId at recordedAt kind reason by }
    current { nodeId label text status author validFrom validTo recordedAt expiredAt credibility }
  }
}
"""

SUPERSEDE = """
mutation Supersede($input: SupersedeInput!) {
  supersede(input: $input) { created newId oldId userErrors { field code message } }
}
"""

FORGET = """
mutation Forget($input: ForgetInput!) {
  forget(input: $input) { auditId removed { label count } reopened completed userErrors { field code message } }
}
"""

INGEST_EPISODE = """
mutation IngestEpisode($input: IngestEpisodeInput!) {
  ingestEpisode(input: $input) { episodeId created { label count } skipped userErrors { field code message } }
}
"""

TAG_VOTE = """
query TagVote($space: String!, $query: String!, $tags: [String!], $first: Int, $asOf: DateTime, $knownAt: DateTime) {
  tagVote(space: $space, query: $query, tags: $tags, first: $first, asOf: $asOf, knownAt: $knownAt) {
    queryTags
    matches { tagId name queryTag match similarity weight }
    facts { nodeId text score votes denseBonus tagCount eventAt validFrom validTo
            votedBy { tagId name queryTag match similarity weight } }
  }
}
"""

ROUTE_SUBGOAL = """
query RouteSubgoal($space: String!, $subgoal: String!, $first: Int, $asOf: DateTime, $knownAt: DateTime) {
  routeSubgoal(space: $space, subgoal: $subgoal, first: $first, asOf: $asOf, knownAt: $knownAt) {
    nodeId kind text score eventAt author status validFrom validTo episodeId latestSlot
    signals { leg rank score }
    value { name value }
  }
}
"""

CHANGES = """
query Changes($space: String!, $since: DateTime!, $until: DateTime!, $first: Int) {
  changes(space: $space, since: $since, until: $until, first: $first) {
    change at recordedAt nodeId label text by otherId kind reason
  }
}
"""

RECORD_OUTCOME = """
mutation RecordOutcome($input: RecordOutcomeInput!) {
  recordOutcome(input: $input) { procedureId return uses userErrors { field code message } }
}
"""


@dataclass
class GraphmemClientError(Exception):
    """A refused request: GraphQL errors, or `userErrors` of a mutation payload (`field` names the input)."""

    message: str
    field: str | None = None
    code: str | None = None

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


_BAD_VARIABLE = re.compile(r"^Variable '\$(\w+)'")


def _graphql_error(error: Mapping[str, Any]) -> GraphmemClientError:
    """One GraphQL error as a client error whose `message` does not repeat its `field`.

    The service writes a read root's field into both `extensions.field` and the message ("first: must be
    ..."); the message keeps only the text after it, so `str()` names the field once. A variable the
    server could not coerce (a bad date) names that variable."""
    message = str(error.get("message") or "request failed")
    ext = error.get("extensions") or {}
    field = ext.get("field")
    if not field and (bad_variable := _BAD_VARIABLE.match(message)):
        field = bad_variable.group(1)
    if field and message.startswith(f"{field}: "):
        message = message[len(field) + 2 :]
    return GraphmemClientError(message, field, ext.get("code"))


def _raise_for_errors(body: Mapping[str, Any]) -> dict[str, Any]:
    errors = body.get("errors") or []
    if errors:
        raise _graphql_error(errors[0])
    data = dict(body.get("data") or {})
    for payload in data.values():
        if isinstance(payload, dict) and payload.get("userErrors"):
            err = payload["userErrors"][0]
            raise GraphmemClientError(err["message"], err.get("field"), err.get("code"))
    return data


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _documents_input(space: str, documents: Sequence[Mapping[str, Any]], strict: bool = False) -> dict[str, Any]:
    return {"space": space, "documents": [dict(d) for d in documents], "strict": strict}


def _reply_data(reply: httpx.Response) -> dict[str, Any]:
    """`data` of a GraphQL reply; a 5xx or a body that is not GraphQL becomes a `GraphmemClientError`."""
    if reply.status_code >= 500:
        raise GraphmemClientError(f"service error {reply.status_code}", code="SERVER")
    try:
        body = reply.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise GraphmemClientError(
            f"{reply.url} answered HTTP {reply.status_code} without a GraphQL body", code="SERVER"
        )
    return _raise_for_errors(body)


def _unreachable(url: object, exc: httpx.TransportError) -> GraphmemClientError:
    if isinstance(exc, httpx.TimeoutException):
        return GraphmemClientError(f"service at {url} did not answer in time ({exc or 'timeout'})", code="TIMEOUT")
    detail = type(exc).__name__ if not str(exc) else str(exc)
    return GraphmemClientError(f"service unreachable at {url}: {detail}", code="UNAVAILABLE")


def _reason_variables(
    space: str,
    query: str,
    subgoal: str | None,
    state: str | None,
    observation: str | None,
    token_budget: int | None,
    first: int,
    as_of: str | None,
    known_at: str | None,
) -> dict[str, Any]:
    return {
        "space": space, "query": query, "subgoal": subgoal, "state": state, "observation": observation,
        "tokenBudget": token_budget, "first": first, "asOf": as_of, "knownAt": known_at,
    }  # fmt: skip


class Client:
    """Synchronous client. `Client("http://127.0.0.1:8000", api_key=...)`; use as a context manager."""

    def __init__(self, url: str = "http://127.0.0.1:8000", api_key: str | None = None, timeout: float = 30.0):
        self._http = httpx.Client(base_url=url.rstrip("/"), headers=_headers(api_key), timeout=timeout)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def execute(self, document: str, variables: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Run any GraphQL document; returns `data`, raises `GraphmemClientError` on errors (also when the
        service cannot be reached)."""
        try:
            reply = self._http.post("/graphql", json={"query": document, "variables": dict(variables or {})})
        except httpx.TransportError as exc:
            raise _unreachable(self._http.base_url, exc) from None
        return _reply_data(reply)

    def health(self) -> dict[str, Any]:
        return dict(self._http.get("/healthz").json())

    def recall(
        self,
        space: str,
        query: str,
        *,
        first: int = 10,
        as_of: str | None = None,
        mode: str = "AUTO",
        known_at: str | None = None,
        budget_tokens: int | None = None,
        budget_chars: int | None = None,
        related: bool = True,
        recipe: str = "hybrid",
    ) -> dict[str, Any]:
        variables = {"space": space, "query": query, "first": first, "asOf": as_of, "mode": mode, "knownAt": known_at,
                     "budgetTokens": budget_tokens, "budgetChars": budget_chars, "related": related,
                     "recipe": recipe}  # fmt: skip
        return dict(self.execute(RECALL, variables)["recall"])

    def reason(
        self,
        space: str,
        query: str,
        *,
        subgoal: str | None = None,
        state: str | None = None,
        observation: str | None = None,
        token_budget: int | None = None,
        first: int = 10,
        as_of: str | None = None,
        known_at: str | None = None,
    ) -> dict[str, Any]:
        """Guidance for the next step within `token_budget` tokens, with the items it drew on (see `reason`)."""
        variables = _reason_variables(space, query, subgoal, state, observation, token_budget, first, as_of, known_at)
        return dict(self.execute(REASON, variables)["reason"])

    def ingest_documents(
        self, space: str, documents: Sequence[Mapping[str, Any]], *, strict: bool = False
    ) -> dict[str, Any]:
        data = self.execute(INGEST_DOCUMENTS, {"input": _documents_input(space, documents, strict)})
        return dict(data["ingestDocuments"])

    def provenance(
        self, space: str, node_id: str, *, as_of: str | None = None, known_at: str | None = None
    ) -> dict[str, Any]:
        variables = {"space": space, "id": node_id, "asOf": as_of, "knownAt": known_at}
        return dict(self.execute(PROVENANCE, variables)["provenance"])

    def history(self, space: str, node_id: str) -> dict[str, Any]:
        return dict(self.execute(HISTORY, {"space": space, "id": node_id})["history"])

    def supersede(
        self, space: str, new_id: str, old_id: str, at: str, *, reason: str | None = None, by: str | None = None
    ) -> dict[str, Any]:
        variables = {"input": {"space": space, "newId": new_id, "oldId": old_id, "at": at, "reason": reason, "by": by}}
        return dict(self.execute(SUPERSEDE, variables)["supersede"])

    def forget(
        self,
        space: str,
        *,
        id: str | None = None,
        author: str | None = None,
        all: bool = False,
        reason: str | None = None,
    ) -> dict[str, Any]:
        """Erase an id, an author's records or the whole space (admin key); the payload names the AuditRecord."""
        variables = {"input": {"space": space, "id": id, "author": author, "all": all, "reason": reason}}
        return dict(self.execute(FORGET, variables)["forget"])

    # --- episodes, tag votes, subgoal routing, changes and outcomes (the MCP tools use these) ---

    def ingest_episode(
        self,
        space: str,
        goal: str,
        steps: Sequence[Mapping[str, Any]],
        *,
        id: str | None = None,
        session_id: str | None = None,
        started_at: str | None = None,
        outcome: float | None = None,
        kind: str | None = None,
        source: str | None = None,
    ) -> dict[str, Any]:
        """Compile one trajectory (steps of action/observation) or chat session (turns) into the graph."""
        episode = {"space": space, "goal": goal, "steps": [dict(step) for step in steps], "id": id,
                   "sessionId": session_id, "startedAt": started_at, "outcome": outcome, "kind": kind,
                   "source": source}  # fmt: skip
        return dict(self.execute(INGEST_EPISODE, {"input": episode})["ingestEpisode"])

    def tag_vote(
        self,
        space: str,
        query: str,
        *,
        tags: Sequence[str] | None = None,
        first: int = 10,
        as_of: str | None = None,
        known_at: str | None = None,
    ) -> dict[str, Any]:
        """Facts ranked by tag votes alone, with the matches that voted."""
        variables = {"space": space, "query": query, "tags": list(tags) if tags is not None else None,
                     "first": first, "asOf": as_of, "knownAt": known_at}  # fmt: skip
        return dict(self.execute(TAG_VOTE, variables)["tagVote"])

    def route_subgoal(
        self, space: str, subgoal: str, *, first: int = 5, as_of: str | None = None, known_at: str | None = None
    ) -> list[dict[str, Any]]:
        """Procedures for a subgoal, best first by the value model."""
        variables = {"space": space, "subgoal": subgoal, "first": first, "asOf": as_of, "knownAt": known_at}
        return [dict(hit) for hit in self.execute(ROUTE_SUBGOAL, variables)["routeSubgoal"]]

    def changes(self, space: str, since: str, until: str, *, first: int = 100) -> list[dict[str, Any]]:
        """What was added, superseded or merged with valid time in [since, until)."""
        variables = {"space": space, "since": since, "until": until, "first": first}
        return [dict(change) for change in self.execute(CHANGES, variables)["changes"]]

    def record_outcome(self, space: str, procedure_id: str, reward: float) -> dict[str, Any]:
        """Feedback on a procedure's use: its return becomes the running mean of rewards."""
        variables = {"input": {"space": space, "procedureId": procedure_id, "reward": reward}}
        return dict(self.execute(RECORD_OUTCOME, variables)["recordOutcome"])


class AsyncClient:
    """The same surface for asyncio agents: `async with AsyncClient(url, api_key=...) as gm: await gm.recall(...)`."""

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000",
        api_key: str | None = None,
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self._http = httpx.AsyncClient(
            base_url=url.rstrip("/"), headers=_headers(api_key), timeout=timeout, transport=transport
        )

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def execute(self, document: str, variables: Mapping[str, Any] | None = None) -> dict[str, Any]:
        try:
            reply = await self._http.post("/graphql", json={"query": document, "variables": dict(variables or {})})
        except httpx.TransportError as exc:
            raise _unreachable(self._http.base_url, exc) from None
        return _reply_data(reply)

    async def recall(
        self,
        space: str,
        query: str,
        *,
        first: int = 10,
        as_of: str | None = None,
        mode: str = "AUTO",
        known_at: str | None = None,
        budget_tokens: int | None = None,
        budget_chars: int | None = None,
        related: bool = True,
        recipe: str = "hybrid",
    ) -> dict[str, Any]:
        variables = {"space": space, "query": query, "first": first, "asOf": as_of, "mode": mode, "knownAt": known_at,
                     "budgetTokens": budget_tokens, "budgetChars": budget_chars, "related": related,
                     "recipe": recipe}  # fmt: skip
        return dict((await self.execute(RECALL, variables))["recall"])

    async def reason(
        self,
        space: str,
        query: str,
        *,
        subgoal: str | None = None,
        state: str | None = None,
        observation: str | None = None,
        token_budget: int | None = None,
        first: int = 10,
        as_of: str | None = None,
        known_at: str | None = None,
    ) -> dict[str, Any]:
        variables = _reason_variables(space, query, subgoal, state, observation, token_budget, first, as_of, known_at)
        return dict((await self.execute(REASON, variables))["reason"])

    async def ingest_documents(self, space: str, documents: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        data = await self.execute(INGEST_DOCUMENTS, {"input": _documents_input(space, documents)})
        return dict(data["ingestDocuments"])

    async def provenance(self, space: str, node_id: str, *, as_of: str | None = None) -> dict[str, Any]:
        data = await self.execute(PROVENANCE, {"space": space, "id": node_id, "asOf": as_of})
        return dict(data["provenance"])

    async def history(self, space: str, node_id: str) -> dict[str, Any]:
        return dict((await self.execute(HISTORY, {"space": space, "id": node_id}))["history"])
