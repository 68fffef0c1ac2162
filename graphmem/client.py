"""`graphmem.Client` / `graphmem.AsyncClient`: typed Python access to a graphmem service over GraphQL.

Agents that do not run graphmem in-process use this: it sends the API key as `Authorization: Bearer`,
turns GraphQL errors and payload `userErrors` into `GraphmemClientError` (with the field they name), and
returns plain dicts shaped like the GraphQL selection — the schema (`schema.graphql`) is the contract.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

RECALL = """
query Recall($space: String!, $query: String!, $first: Int, $asOf: DateTime, $mode: RecallMode!) {
  recall(space: $space, query: $query, first: $first, asOf: $asOf, mode: $mode) {
    hits { nodeId kind text score eventAt author status episodeId signals { leg rank score } }
    evidence
    evidenceTokens
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
    skipped
    failed
    userErrors { field code message }
  }
}
"""

PROVENANCE = """
query Provenance($space: String!, $id: String!, $asOf: DateTime) {
  provenance(space: $space, id: $id, asOf: $asOf) {
    nodeId
    evidence { nodeId text eventAt author episodeId }
    lineage { type sourceId targetId at kind reason by }
  }
}
"""

HISTORY = """
query History($space: String!, $id: String!) {
  history(space: $space, id: $id) {
    versions { nodeId text status author validFrom validTo }
  }
}
"""

SUPERSEDE = """
mutation Supersede($input: SupersedeInput!) {
  supersede(input: $input) { created userErrors { field code message } }
}
"""

FORGET = """
mutation Forget($input: ForgetInput!) {
  forget(input: $input) { auditId removed { label count } reopened completed userErrors { field code message } }
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


def _raise_for_errors(body: Mapping[str, Any]) -> dict[str, Any]:
    errors = body.get("errors") or []
    if errors:
        first = errors[0]
        ext = first.get("extensions") or {}
        raise GraphmemClientError(first.get("message", "request failed"), ext.get("field"), ext.get("code"))
    data = dict(body.get("data") or {})
    for payload in data.values():
        if isinstance(payload, dict) and payload.get("userErrors"):
            err = payload["userErrors"][0]
            raise GraphmemClientError(err["message"], err.get("field"), err.get("code"))
    return data


def _headers(api_key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


def _documents_input(space: str, documents: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {"space": space, "documents": [dict(d) for d in documents]}


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
        """Run any GraphQL document; returns `data`, raises `GraphmemClientError` on errors."""
        reply = self._http.post("/graphql", json={"query": document, "variables": dict(variables or {})})
        if reply.status_code >= 500:
            raise GraphmemClientError(f"service error {reply.status_code}", code="SERVER")
        return _raise_for_errors(reply.json())

    def health(self) -> dict[str, Any]:
        return dict(self._http.get("/healthz").json())

    def recall(
        self, space: str, query: str, *, first: int = 10, as_of: str | None = None, mode: str = "AUTO"
    ) -> dict[str, Any]:
        variables = {"space": space, "query": query, "first": first, "asOf": as_of, "mode": mode}
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

    def ingest_documents(self, space: str, documents: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        data = self.execute(INGEST_DOCUMENTS, {"input": _documents_input(space, documents)})
        return dict(data["ingestDocuments"])

    def provenance(self, space: str, node_id: str, *, as_of: str | None = None) -> dict[str, Any]:
        return dict(self.execute(PROVENANCE, {"space": space, "id": node_id, "asOf": as_of})["provenance"])

    def history(self, space: str, node_id: str) -> dict[str, Any]:
        return dict(self.execute(HISTORY, {"space": space, "id": node_id})["history"])

    def supersede(self, space: str, new_id: str, old_id: str, at: str, *, reason: str | None = None) -> dict[str, Any]:
        variables = {"input": {"space": space, "newId": new_id, "oldId": old_id, "at": at, "reason": reason}}
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
        reply = await self._http.post("/graphql", json={"query": document, "variables": dict(variables or {})})
        if reply.status_code >= 500:
            raise GraphmemClientError(f"service error {reply.status_code}", code="SERVER")
        return _raise_for_errors(reply.json())

    async def recall(
        self, space: str, query: str, *, first: int = 10, as_of: str | None = None, mode: str = "AUTO"
    ) -> dict[str, Any]:
        variables = {"space": space, "query": query, "first": first, "asOf": as_of, "mode": mode}
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
