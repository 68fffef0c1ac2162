"""Hand-made graphs for read-path tests: nodes and edges created in one test space with parameterised
Cypher, independent of the write path. Every node gets the model's required properties (id, space,
caption, recorded_at, expired_at; valid_from, valid_to, status for versioned kinds)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.timeutil import FAR_FUTURE

T0 = datetime(2020, 1, 1, tzinfo=UTC)
_VERSIONED = {"Semantic", "Procedural", "Episodic"}


def at(text: str) -> datetime:
    """'2024-03-05' or a full ISO time as an aware UTC datetime."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class GraphBuilder:
    def __init__(self, store: Store, embedder: Embedder, space: str) -> None:
        self.store = store
        self.embedder = embedder
        self.space = space
        self._ids = itertools.count(1)

    def _id(self, prefix: str, given: str | None) -> str:
        return given or f"{self.space}:{prefix}{next(self._ids)}"

    def _vector(self, text: str) -> list[float]:
        return self.embedder.embed([text])[0]

    def _create(self, label: str, props: dict[str, Any]) -> str:
        # Labels come from this file's own constants, never from test input.
        assert label in {"Episode", "Episodic", "Semantic", "Tag", "Subgoal", "Procedural"}
        self.store.run_write_text(f"CREATE (n:{label}) SET n = $props", props=props)
        return str(props["id"])

    def _base(self, prefix: str, id: str | None, caption: str, recorded_at: datetime, expired_at: datetime):
        return {
            "id": self._id(prefix, id),
            "space": self.space,
            "caption": caption[:80],
            "recorded_at": recorded_at,
            "expired_at": expired_at,
        }

    def _versioned(
        self,
        prefix: str,
        id: str | None,
        text: str,
        valid_from: datetime,
        valid_to: datetime,
        status: str,
        recorded_at: datetime | None,
        expired_at: datetime,
    ) -> dict[str, Any]:
        props = self._base(prefix, id, text, recorded_at or valid_from, expired_at)
        props.update(valid_from=valid_from, valid_to=valid_to, status=status, embedding=self._vector(text))
        return props

    # --- nodes ---------------------------------------------------------------------------------
    def tag(self, name: str, *, norm_name: str | None = None, id: str | None = None) -> str:
        from graphmem.text import normalize_tag

        props = self._base("tag", id, name, T0, FAR_FUTURE)
        props.update(name=name, norm_name=norm_name or normalize_tag(name), embedding=self._vector(name))
        return self._create("Tag", props)

    def semantic(
        self,
        text: str,
        *,
        id: str | None = None,
        tags: Sequence[str] = (),
        valid_from: datetime = T0,
        valid_to: datetime = FAR_FUTURE,
        status: str = "active",
        recorded_at: datetime | None = None,
        expired_at: datetime = FAR_FUTURE,
        author: str | None = None,
        importance: float = 1.0,
        credibility: float = 1.0,
    ) -> str:
        props = self._versioned("fact", id, text, valid_from, valid_to, status, recorded_at, expired_at)
        props.update(text=text, event_at=valid_from, importance=importance, credibility=credibility)
        if author:
            props["author"] = author
        fact_id = self._create("Semantic", props)
        for tag_id in tags:
            self.store.run_write_text(
                "MATCH (t:Tag {id: $t, space: $s}), (n:Semantic {id: $n, space: $s}) CREATE (t)-[:TAGS]->(n)",
                t=tag_id,
                n=fact_id,
                s=self.space,
            )
        return fact_id

    def episode(
        self,
        *,
        id: str | None = None,
        goal: str | None = None,
        session_id: str | None = None,
        kind: str = "chat",
        started_at: datetime = T0,
    ) -> str:
        props = self._base("ep", id, goal or session_id or "episode", started_at, FAR_FUTURE)
        props.update(kind=kind, started_at=started_at)
        if goal:
            props["goal"] = goal
        if session_id:
            props["session_id"] = session_id
        return self._create("Episode", props)

    def episodic(
        self,
        text: str,
        *,
        id: str | None = None,
        episode_id: str | None = None,
        seq: int | None = None,
        kind: str = "turn",
        author: str | None = None,
        event_at: datetime = T0,
        valid_to: datetime = FAR_FUTURE,
        status: str = "active",
        recorded_at: datetime | None = None,
    ) -> str:
        props = self._versioned("unit", id, text, event_at, valid_to, status, recorded_at, FAR_FUTURE)
        props.update(text=text, kind=kind, event_at=event_at)
        if author:
            props["author"] = author
        if seq is not None:
            props["seq"] = seq
        unit_id = self._create("Episodic", props)
        if episode_id:
            self.store.run_write_text(
                "MATCH (u:Episodic {id: $u, space: $s}), (e:Episode {id: $e, space: $s}) CREATE (u)-[:PART_OF]->(e)",
                u=unit_id,
                e=episode_id,
                s=self.space,
            )
        return unit_id

    def subgoal(self, text: str, *, id: str | None = None) -> str:
        props = self._base("subgoal", id, text, T0, FAR_FUTURE)
        props.update(text=text, embedding=self._vector(text), importance=1.0, members=1)
        return self._create("Subgoal", props)

    def procedural(
        self,
        text: str,
        *,
        subgoal_id: str | None = None,
        id: str | None = None,
        ret: float = 0.0,
        uses: int = 0,
        goal: str | None = None,
        valid_from: datetime = T0,
        valid_to: datetime = FAR_FUTURE,
        status: str = "active",
    ) -> str:
        props = self._versioned("proc", id, text, valid_from, valid_to, status, None, FAR_FUTURE)
        props.update(text=text, uses=uses, importance=1.0, credibility=1.0)
        props["return"] = ret
        if goal:
            props["goal"] = goal
        proc_id = self._create("Procedural", props)
        if subgoal_id:
            self.store.run_write_text(
                "MATCH (g:Subgoal {id: $g, space: $s}), (p:Procedural {id: $p, space: $s}) "
                "CREATE (g)-[:HAS_PROCEDURE]->(p)",
                g=subgoal_id,
                p=proc_id,
                s=self.space,
            )
        return proc_id

    # --- edges ---------------------------------------------------------------------------------
    def evidenced_by(self, node_id: str, unit_id: str, *, label: str = "Semantic") -> None:
        assert label in _VERSIONED
        self.store.run_write_text(
            f"MATCH (n:{label} {{id: $n, space: $s}}), (u:Episodic {{id: $u, space: $s}}) "
            "CREATE (n)-[:EVIDENCED_BY]->(u)",
            n=node_id,
            u=unit_id,
            s=self.space,
        )

    def supersede(
        self, newer: str, older: str, when: datetime, *, reason: str = "update", label: str = "Semantic"
    ) -> None:
        """`newer` replaces `older` at `when`: the edge, plus older's valid_to and status."""
        assert label in _VERSIONED
        self.store.run_write_text(
            f"MATCH (a:{label} {{id: $a, space: $s}}), (b:{label} {{id: $b, space: $s}}) "
            "CREATE (a)-[:SUPERSEDES {at: $at, recorded_at: $at, kind: 'explicit', reason: $reason, "
            "by: 'test'}]->(b) "
            "SET b.valid_to = $at, b.status = 'superseded'",
            a=newer,
            b=older,
            at=when,
            reason=reason,
            s=self.space,
        )

    def merge(self, merged: str, source: str, when: datetime, *, label: str = "Semantic") -> None:
        assert label in _VERSIONED
        self.store.run_write_text(
            f"MATCH (a:{label} {{id: $a, space: $s}}), (b:{label} {{id: $b, space: $s}}) "
            "CREATE (a)-[:MERGED_FROM {at: $at, recorded_at: $at}]->(b) "
            "SET b.valid_to = $at, b.status = 'merged'",
            a=merged,
            b=source,
            at=when,
            s=self.space,
        )
