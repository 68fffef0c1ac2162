"""Test graphs for the evolution tests, written with plain parameterised Cypher.

Independent of the write path on purpose: each helper writes exactly the nodes and edges a test names,
with every property the model declares, so the evolution code is tested against a known graph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.timeutil import FAR_FUTURE


def day(text: str) -> datetime:
    """`day("2024-03-05")` -> 2024-03-05T00:00:00Z."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


VERSIONED_PROPS = """
  n.space = $space, n.caption = left($body, 60), n.text = $body, n.recorded_at = $recorded_at,
  n.expired_at = $far, n.valid_from = $valid_from, n.valid_to = $far, n.status = 'active',
  n.embedding = $embedding
"""


@dataclass
class GraphBuilder:
    """Writes a small graph into one space; `embedder` gives nodes real vectors for the vector indexes."""

    store: Store
    space: str
    embedder: Embedder
    recorded_at: datetime = field(default_factory=lambda: day("2020-01-01"))

    def qualify(self, name: str) -> str:
        """Ids are unique per label across spaces, so test names are prefixed with the space
        (service-made ids such as `fact_<24 hex>` pass through)."""
        if name.startswith(self.space + ":") or re.fullmatch(r"[a-z]+_[0-9a-f]{24}", name):
            return name
        return f"{self.space}:{name}"

    def _vector(self, text: str) -> list[float]:
        return self.embedder.embed([text])[0]

    def _common(self, text: str, valid_from: datetime) -> dict[str, Any]:
        return {
            "space": self.space,
            "body": text,
            "valid_from": valid_from,
            "recorded_at": self.recorded_at,
            "far": FAR_FUTURE,
            "embedding": self._vector(text),
        }

    def episode(self, id: str, goal: str = "a session", started_at: datetime | None = None) -> str:
        id = self.qualify(id)
        self.store.run_write_text(
            "MERGE (e:Episode {id: $id}) SET e.space = $space, e.caption = $goal, e.goal = $goal, "
            "e.kind = 'chat', e.started_at = $started_at, e.recorded_at = $recorded_at, e.expired_at = $far",
            id=id,
            space=self.space,
            goal=goal,
            started_at=started_at or day("2024-01-01"),
            recorded_at=self.recorded_at,
            far=FAR_FUTURE,
        )
        return id

    def episodic(
        self, id: str, text: str, *, episode: str, event_at: datetime, author: str | None = None, seq: int = 0
    ) -> str:
        id, episode = self.qualify(id), self.qualify(episode)
        self.store.run_write_text(
            "MATCH (ep:Episode {id: $episode, space: $space}) "
            "MERGE (n:Episodic {id: $id}) SET" + VERSIONED_PROPS + ", n.kind = 'turn', n.author = $author, "
            "n.event_at = $valid_from, n.seq = $seq MERGE (n)-[:PART_OF]->(ep)",
            id=id,
            episode=episode,
            author=author,
            seq=seq,
            **self._common(text, event_at),
        )
        return id

    def semantic(
        self,
        id: str,
        text: str,
        *,
        valid_from: datetime,
        tags: tuple[str, ...] = (),
        evidence: tuple[str, ...] = (),
        author: str | None = None,
        credibility: float = 1.0,
    ) -> str:
        id = self.qualify(id)
        self.store.run_write_text(
            "MERGE (n:Semantic {id: $id}) SET" + VERSIONED_PROPS + ", n.author = $author, "
            "n.event_at = $valid_from, n.credibility = $credibility, n.importance = 1.0 "
            "WITH n UNWIND $tags AS tag "
            "MERGE (t:Tag {id: $space + ':' + tag}) SET t.space = $space, t.name = tag, t.norm_name = tag, "
            "t.caption = tag, t.recorded_at = $recorded_at, t.expired_at = $far "
            "MERGE (t)-[:TAGS]->(n)",
            id=id,
            author=author,
            credibility=credibility,
            tags=list(tags),
            **self._common(text, valid_from),
        )
        self._evidence("Semantic", id, evidence)
        return id

    def procedural(
        self, id: str, text: str, *, valid_from: datetime, evidence: tuple[str, ...] = (), goal: str = ""
    ) -> str:
        id = self.qualify(id)
        self.store.run_write_text(
            "MERGE (n:Procedural {id: $id}) SET" + VERSIONED_PROPS + ", n.goal = $goal, n.credibility = 1.0, "
            "n.importance = 1.0, n.`return` = 0.0, n.uses = 0",
            id=id,
            goal=goal,
            **self._common(text, valid_from),
        )
        self._evidence("Procedural", id, evidence)
        return id

    def subgoal(self, id: str, text: str, *, procedures: tuple[str, ...]) -> str:
        id = self.qualify(id)
        self.store.run_write_text(
            "MERGE (g:Subgoal {id: $id}) SET g.space = $space, g.text = $body, g.caption = $body, "
            "g.recorded_at = $recorded_at, g.expired_at = $far, g.embedding = $embedding, g.members = 1 "
            "WITH g UNWIND $procedures AS pid MATCH (p:Procedural {id: pid, space: $space}) "
            "MERGE (g)-[:HAS_PROCEDURE]->(p)",
            id=id,
            procedures=[self.qualify(p) for p in procedures],
            **{k: v for k, v in self._common(text, self.recorded_at).items() if k != "valid_from"},
        )
        return id

    def _evidence(self, label: str, id: str, evidence: tuple[str, ...]) -> None:
        if not evidence:
            return
        query = {
            "Semantic": "MATCH (n:Semantic {id: $id})",
            "Procedural": "MATCH (n:Procedural {id: $id})",
        }[label]
        self.store.run_write_text(
            query + " UNWIND $evidence AS ev MATCH (e:Episodic {id: ev, space: $space}) MERGE (n)-[:EVIDENCED_BY]->(e)",
            id=id,
            evidence=[self.qualify(e) for e in evidence],
            space=self.space,
        )

    def counts(self) -> dict[str, int]:
        """Nodes per label in this space (what consolidation must never lower)."""
        rows = self.store.run_read_text(
            "RETURN COUNT { (n:Episode {space: $space}) } AS Episode, "
            "COUNT { (n:Episodic {space: $space}) } AS Episodic, "
            "COUNT { (n:Semantic {space: $space}) } AS Semantic, "
            "COUNT { (n:Procedural {space: $space}) } AS Procedural, "
            "COUNT { (n:Tag {space: $space}) } AS Tag",
            space=self.space,
        )
        return dict(rows[0])

    def node(self, id: str, label: str = "Semantic") -> dict[str, Any]:
        """Properties of one node (no embedding), times as Python datetimes."""
        query = {
            "Semantic": "MATCH (n:Semantic {id: $id, space: $space})",
            "Procedural": "MATCH (n:Procedural {id: $id, space: $space})",
            "Episodic": "MATCH (n:Episodic {id: $id, space: $space})",
        }[label]
        rows = self.store.run_read_text(query + " RETURN properties(n) AS p", id=self.qualify(id), space=self.space)
        assert rows, f"{label} {id} missing"
        props = dict(rows[0]["p"])
        props.pop("embedding", None)
        return {k: (v.to_native() if hasattr(v, "to_native") else v) for k, v in props.items()}
