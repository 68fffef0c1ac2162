"""Regenerate the "real output" GraphQL examples of docs/graphql.md and the README.

Writes two dated memos (the second superseding the first) and a two-step trajectory into a fresh space
through the API, runs the example queries, and prints them with their answers as Markdown.
Usage (against any Neo4j the settings name): python bench/graphql_examples.py > /tmp/examples.md
"""

from __future__ import annotations

import json
import sys
import tempfile
import uuid
from pathlib import Path

from starlette.testclient import TestClient

from graphmem.api import Services, create_app
from graphmem.config import Settings, get_settings
from graphmem.db import Store
from graphmem.embed import make_embedder

INGEST = "mutation($i: IngestDocumentsInput!) { ingestDocuments(input: $i) { ids userErrors { message } } }"
EPISODE = "mutation($i: IngestEpisodeInput!) { ingestEpisode(input: $i) { userErrors { message } } }"

TAG_VOTE = """query TagVote($space: String!) {
  tagVote(space: $space, query: "Where is the Acme office?", tags: ["Acme"], first: 3) {
    queryTags
    facts { text votes denseBonus votedBy { name match weight } }
  }
}"""
ROUTE = """query Route($space: String!) {
  routeSubgoal(space: $space, subgoal: "reserve a room", first: 2) {
    text score
    node { ... on Procedural { return uses subgoals { text } evidence { text } } }
  }
}"""
PROVENANCE = """query Provenance($space: String!, $id: String!) {
  provenance(space: $space, id: $id, asOf: "2024-07-01T00:00:00Z") {
    text status versionAt supersededBy
    node { ... on Episodic { author eventAt supersededBy { at kind node { text author } } } }
  }
}"""
REASON = """query Reason($space: String!) {
  reason(space: $space, query: "Where is the Acme office?", tokenBudget: 40, first: 5) {
    guidance usedLlm guidanceTokens evidenceTokens tokenBudget
    items { nodeId kind text eventAt author sourceIds evidence { nodeId author eventAt } }
  }
}"""


def main() -> int:
    base = get_settings()
    key = "gmk_examples_" + uuid.uuid4().hex
    space = "examples-" + uuid.uuid4().hex[:8]
    settings = Settings(
        **{k: v for k, v in base.model_dump(by_alias=True).items() if v is not None},
        GRAPHMEM_API_KEYS=f"{key}|read,write|{space}",
        GRAPHMEM_API_KEY_FILE=Path(tempfile.mkdtemp()) / "keys.json",
    )
    store = Store.from_settings(settings)
    client = TestClient(create_app(Services(settings=settings, store=store, _embedder=make_embedder(settings))))

    def gql(query: str, variables: dict) -> dict:
        reply = client.post("/graphql", json={"query": query, "variables": variables},
                            headers={"Authorization": f"Bearer {key}"})  # fmt: skip
        return dict(reply.json())

    memo1, memo2 = f"{space}-memo-1", f"{space}-memo-2"
    gql(INGEST, {"i": {"space": space, "documents": [
        {"id": memo1, "text": "The Acme office is located in Paris, on Rue de Rivoli.", "author": "ana",
         "eventAt": "2024-01-10T09:00:00Z"},
        {"id": memo2, "text": "The Acme office moved to Lyon, near the Part-Dieu station.", "author": "bo",
         "eventAt": "2024-06-01T09:00:00Z", "supersedes": [memo1]}]}})  # fmt: skip
    gql(EPISODE, {"i": {"space": space, "goal": "book a meeting room for the offsite", "outcome": 1.0,
                        "startedAt": "2024-03-01T10:00:00Z", "steps": [
        {"action": "search rooms 'offsite Lyon'", "observation": "Found 3 rooms; Salle Rhône has a projector."},
        {"action": "book 'Salle Rhône' for May 3",
         "observation": "Booking confirmed for Salle Rhône on May 3."}]}})  # fmt: skip
    for title, query, variables in (
        ("tag voting", TAG_VOTE, {"space": space}),
        ("subgoal routing", ROUTE, {"space": space}),
        ("as-of provenance", PROVENANCE, {"space": space, "id": memo1}),
        ("reasoning", REASON, {"space": space}),
    ):
        print(f"### {title}\n\n```graphql\n{query}\n```\n")
        print(f"variables: `{json.dumps(variables)}`\n")
        print(f"```json\n{json.dumps(gql(query, variables), indent=2, ensure_ascii=False)}\n```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
