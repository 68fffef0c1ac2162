"""GraphQL object types for the graph's node kinds, named as the Neo4j labels.

Each object carries the `ReadScope` it was read under (private to the schema), so nested fields
inherit the root's space, asOf and knownAt. Every nested edge goes through a per-request DataLoader.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Generic, TypeVar

import strawberry
from graphql import GraphQLError
from strawberry.relay import from_base64, to_base64
from strawberry.scalars import JSON
from strawberry.types import Info

from graphmem.api.context import RequestContext
from graphmem.api.scope import ReadScope
from graphmem.jsonvalue import METADATA_MAX_DEPTH, json_depth
from graphmem.timeutil import FAR_FUTURE

T = TypeVar("T")
ApiInfo = Info[RequestContext, None]


@strawberry.enum(description="Lifecycle of a versioned node")
class VersionStatus(Enum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    MERGED = "merged"


# Ids are unique per space, so a global id names the space too: base64 of "Label:<space>\x1f<id>".
_SPACE_SEPARATOR = "\x1f"


@dataclass(frozen=True)
class GlobalId:
    """What a global id names; `space` is None for the older form without one (resolved only when unique)."""

    label: str
    node_id: str
    space: str | None = None


def global_id(label: str, node_id: str, space: str) -> strawberry.ID:
    return strawberry.ID(to_base64(label, f"{space}{_SPACE_SEPARATOR}{node_id}"))


def parse_global_id(value: str) -> GlobalId | None:
    """The label, space and graphmem id of a global id, or None when `value` is not one."""
    try:
        label, rest = from_base64(value)
    except ValueError:
        return None
    if label not in NODE_TYPES:
        return None
    space, separator, node_id = rest.partition(_SPACE_SEPARATOR)
    return GlobalId(label, node_id, space) if separator else GlobalId(label, rest)


def _time(value: Any, *, open_end: bool = False) -> datetime | None:
    """A stored time as a Python datetime; the far-future sentinel reads as null ("still open")."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    if open_end and value.year >= FAR_FUTURE.year:
        return None
    return value


def _common(label: str, props: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": global_id(label, props["id"], props["space"]),
        "node_id": props["id"],
        "space": props["space"],
        "caption": props.get("caption"),
        "recorded_at": _time(props.get("recorded_at")),
        "expired_at": _time(props.get("expired_at"), open_end=True),
    }


def _versioned(props: dict[str, Any]) -> dict[str, Any]:
    status = props.get("status") or "active"
    return {
        "valid_from": _time(props.get("valid_from")),
        "valid_to": _time(props.get("valid_to"), open_end=True),
        "status": VersionStatus(status) if status in {s.value for s in VersionStatus} else VersionStatus.ACTIVE,
    }


def _limit(info: ApiInfo, first: int | None) -> int:
    from graphmem.api.limits import check_first

    return check_first(info.context.settings, first)


@strawberry.interface(description="An object with a global id (Relay global object identification)")
class Node:
    id: strawberry.ID = strawberry.field(description="Global id: base64 of 'Label:nodeId'; pass it to node(id)")


@strawberry.interface(description="Fields every graphmem node carries")
class MemoryNode(Node):
    node_id: str = strawberry.field(description="graphmem's own id (as in Cypher, the CLI and the Python API)")
    space: str
    caption: str | None = strawberry.field(description="Short readable line (as shown in Neo4j Browser)")
    recorded_at: datetime | None = strawberry.field(description="When the service learned it (record time)")
    expired_at: datetime | None = strawberry.field(description="When the service stopped holding it; null: still")


@strawberry.interface(description="A node with valid time and a lifecycle status")
class Versioned(MemoryNode):
    valid_from: datetime | None = strawberry.field(description="Start of valid time")
    valid_to: datetime | None = strawberry.field(description="End of valid time; null: still valid")
    status: VersionStatus


@strawberry.type(description="A dated supersession: the newer version replaced the older one at `at`")
class Supersession(Generic[T]):
    at: datetime | None
    recorded_at: datetime | None
    kind: str | None = strawberry.field(description="explicit | conflict | document")
    reason: str | None
    by: str | None
    node: T = strawberry.field(description="The other version (older for supersedes, newer for supersededBy)")


@strawberry.type(description="Consolidation lineage: a merged node and one of its sources")
class MergeLink(Generic[T]):
    at: datetime | None
    recorded_at: datetime | None
    node: T


def _links(links: list[dict[str, Any]] | None, rel: str, outgoing: bool) -> list[dict[str, Any]]:
    return [link for link in links or [] if link["type"] == rel and link["outgoing"] == outgoing]


def _supersessions(label: str, links: list[dict[str, Any]], scope: ReadScope) -> list[Any]:
    return [
        Supersession(
            at=_time(link.get("at")),
            recorded_at=_time(link.get("recorded_at")),
            kind=link.get("kind"),
            reason=link.get("reason"),
            by=link.get("by"),
            node=build_node(label, link["node"], scope),
        )
        for link in links
    ]


def _merges(label: str, links: list[dict[str, Any]], scope: ReadScope) -> list[Any]:
    return [
        MergeLink(
            at=_time(link.get("at")),
            recorded_at=_time(link.get("recorded_at")),
            node=build_node(label, link["node"], scope),
        )
        for link in links
    ]


async def _lineage(info: ApiInfo, label: str, node: Any) -> list[dict[str, Any]]:
    value = await info.context.loaders.load(f"{label.lower()}_lineage", node.node_id, node.scope)
    return list(value or [])


async def _nodes(info: ApiInfo, query: str, label: str, node: Any, limit: int = 0) -> list[Any]:
    value = await info.context.loaders.load(query, node.node_id, node.scope, limit)
    return [build_node(label, props, node.scope) for props in value or []]


@strawberry.type(description="A proposition: what is true, with its tags, evidence and versions")
class Semantic(Versioned):
    text: str
    author: str | None
    event_at: datetime | None
    credibility: float | None
    importance: float | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="Tags that vote for this fact")
    async def tags(self, info: ApiInfo) -> list[Tag]:
        return await _nodes(info, "semantic_tags", "Tag", self)

    @strawberry.field(description="The raw evidence this fact was extracted from")
    async def evidence(self, info: ApiInfo) -> list[Episodic]:
        return await _nodes(info, "semantic_evidence", "Episodic", self)

    @strawberry.field(description="Older versions this fact replaced")
    async def supersedes(self, info: ApiInfo) -> list[Supersession[Semantic]]:
        return _supersessions(
            "Semantic", _links(await _lineage(info, "Semantic", self), "SUPERSEDES", True), self.scope
        )

    @strawberry.field(description="Newer versions that replaced this fact")
    async def superseded_by(self, info: ApiInfo) -> list[Supersession[Semantic]]:
        links = _links(await _lineage(info, "Semantic", self), "SUPERSEDES", False)
        return _supersessions("Semantic", links, self.scope)

    @strawberry.field(description="Facts consolidated into this one")
    async def merged_from(self, info: ApiInfo) -> list[MergeLink[Semantic]]:
        return _merges("Semantic", _links(await _lineage(info, "Semantic", self), "MERGED_FROM", True), self.scope)

    @strawberry.field(description="The fact this one was consolidated into")
    async def merged_into(self, info: ApiInfo) -> list[MergeLink[Semantic]]:
        links = _links(await _lineage(info, "Semantic", self), "MERGED_FROM", False)
        return _merges("Semantic", links, self.scope)


@strawberry.type(description="A reusable insight / how-to for a subgoal, with the return it has earned")
class Procedural(Versioned):
    text: str
    goal: str | None
    return_value: float | None = strawberry.field(name="return", description="Average outcome of its uses")
    uses: int | None
    credibility: float | None
    importance: float | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="Subgoals this procedure is routed by")
    async def subgoals(self, info: ApiInfo) -> list[Subgoal]:
        return await _nodes(info, "procedural_subgoals", "Subgoal", self)

    @strawberry.field(description="The raw evidence this insight was drawn from")
    async def evidence(self, info: ApiInfo) -> list[Episodic]:
        return await _nodes(info, "procedural_evidence", "Episodic", self)

    @strawberry.field(description="Older versions this procedure replaced")
    async def supersedes(self, info: ApiInfo) -> list[Supersession[Procedural]]:
        links = _links(await _lineage(info, "Procedural", self), "SUPERSEDES", True)
        return _supersessions("Procedural", links, self.scope)

    @strawberry.field(description="Newer versions that replaced this procedure")
    async def superseded_by(self, info: ApiInfo) -> list[Supersession[Procedural]]:
        links = _links(await _lineage(info, "Procedural", self), "SUPERSEDES", False)
        return _supersessions("Procedural", links, self.scope)

    @strawberry.field(description="Procedures consolidated into this one")
    async def merged_from(self, info: ApiInfo) -> list[MergeLink[Procedural]]:
        links = _links(await _lineage(info, "Procedural", self), "MERGED_FROM", True)
        return _merges("Procedural", links, self.scope)

    @strawberry.field(description="The procedure this one was consolidated into")
    async def merged_into(self, info: ApiInfo) -> list[MergeLink[Procedural]]:
        links = _links(await _lineage(info, "Procedural", self), "MERGED_FROM", False)
        return _merges("Procedural", links, self.scope)


@strawberry.type(description="One raw evidence unit: a trajectory step, a chat turn or a whole document")
class Episodic(Versioned):
    kind: str = strawberry.field(description="step | turn | document")
    text: str | None
    action: str | None
    observation: str | None
    subgoal: str | None
    state: str | None
    reward: float | None
    author: str | None
    source: str | None
    event_at: datetime | None
    seq: int | None
    metadata_json: strawberry.Private[str | None]
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="The metadata object given at ingest")
    def metadata(self) -> JSON | None:
        return _metadata(self.metadata_json)

    @strawberry.field(description="The episode (trajectory, session or document batch) it belongs to")
    async def episode(self, info: ApiInfo) -> Episode | None:
        value = await info.context.loaders.load("episodic_episode", self.node_id, self.scope)
        return build_node("Episode", value, self.scope) if value else None

    @strawberry.field(description="Facts extracted from this evidence")
    async def facts(self, info: ApiInfo, first: int | None = None) -> list[Semantic]:
        return await _nodes(info, "episodic_facts", "Semantic", self, _limit(info, first))

    @strawberry.field(description="Older versions this one replaced (e.g. an earlier version of a document)")
    async def supersedes(self, info: ApiInfo) -> list[Supersession[Episodic]]:
        links = _links(await _lineage(info, "Episodic", self), "SUPERSEDES", True)
        return _supersessions("Episodic", links, self.scope)

    @strawberry.field(description="Newer versions that replaced this one")
    async def superseded_by(self, info: ApiInfo) -> list[Supersession[Episodic]]:
        links = _links(await _lineage(info, "Episodic", self), "SUPERSEDES", False)
        return _supersessions("Episodic", links, self.scope)


@strawberry.type(description="One trajectory, chat session or document batch")
class Episode(MemoryNode):
    goal: str | None
    kind: str | None = strawberry.field(description="trajectory | chat | documents")
    source: str | None
    session_id: str | None
    started_at: datetime | None
    ended_at: datetime | None
    outcome: float | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="Its steps / turns / documents in order")
    async def steps(self, info: ApiInfo, first: int | None = None) -> list[Episodic]:
        return await _nodes(info, "episode_steps", "Episodic", self, _limit(info, first))


@strawberry.type(description="A short verbatim key (entity, attribute, verb) that facts are voted by")
class Tag(MemoryNode):
    name: str
    norm_name: str
    importance: float | None
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="Facts carrying this tag, valid at the inherited asOf, newest first")
    async def facts(self, info: ApiInfo, first: int | None = None) -> list[Semantic]:
        return await _nodes(info, "tag_facts", "Semantic", self, _limit(info, first))


@strawberry.type(description="An abstract intent that procedures are routed by")
class Subgoal(MemoryNode):
    text: str
    importance: float | None
    members: int | None = strawberry.field(description="Subgoal texts clustered into this one")
    scope: strawberry.Private[ReadScope]

    @strawberry.field(description="Procedures for this subgoal valid at the inherited asOf, best return first")
    async def procedures(self, info: ApiInfo, first: int | None = None) -> list[Procedural]:
        return await _nodes(info, "subgoal_procedures", "Procedural", self, _limit(info, first))


def _metadata(value: Any) -> Any:
    """Stored metadata text as JSON, decoded only when a client selects it; a value no reader could
    re-encode (stored before ingest bounded it) fails this one field, never the whole answer."""
    if value is None or not isinstance(value, str):
        return value
    try:
        decoded = json.loads(value)
        too_deep = json_depth(decoded, METADATA_MAX_DEPTH) > METADATA_MAX_DEPTH
    except ValueError:
        return value
    except RecursionError:
        too_deep = True
    if too_deep:
        raise GraphQLError(
            f"stored metadata nests more than {METADATA_MAX_DEPTH} levels; it is not returned",
            extensions={"code": "UNREADABLE_METADATA"},
        )
    return decoded


def build_node(label: str, props: dict[str, Any], scope: ReadScope) -> Any:
    """The GraphQL object for a node's properties (as returned by `n {.*, embedding: null}`)."""
    get = props.get
    common = _common(label, props)
    if label == "Semantic":
        return Semantic(
            **common, **_versioned(props), text=get("text") or "", author=get("author"),
            event_at=_time(get("event_at")), credibility=get("credibility"), importance=get("importance"),
            scope=scope,
        )  # fmt: skip
    if label == "Procedural":
        return Procedural(
            **common, **_versioned(props), text=get("text") or "", goal=get("goal"),
            return_value=get("return"), uses=get("uses"), credibility=get("credibility"),
            importance=get("importance"), scope=scope,
        )  # fmt: skip
    if label == "Episodic":
        return Episodic(
            **common, **_versioned(props), kind=get("kind") or "step", text=get("text"), action=get("action"),
            observation=get("observation"), subgoal=get("subgoal"), state=get("state"), reward=get("reward"),
            author=get("author"), source=get("source"), event_at=_time(get("event_at")), seq=get("seq"),
            metadata_json=get("metadata"), scope=scope,
        )  # fmt: skip
    if label == "Episode":
        return Episode(
            **common, goal=get("goal"), kind=get("kind"), source=get("source"), session_id=get("session_id"),
            started_at=_time(get("started_at")), ended_at=_time(get("ended_at")), outcome=get("outcome"),
            scope=scope,
        )  # fmt: skip
    if label == "Tag":
        return Tag(
            **common, name=get("name") or "", norm_name=get("norm_name") or "", importance=get("importance"),
            scope=scope,
        )  # fmt: skip
    if label == "Subgoal":
        return Subgoal(
            **common, text=get("text") or "", importance=get("importance"), members=get("members"), scope=scope
        )
    raise ValueError(f"no GraphQL type for label {label!r}")


NODE_TYPES: dict[str, type] = {
    "Semantic": Semantic,
    "Procedural": Procedural,
    "Episodic": Episodic,
    "Episode": Episode,
    "Tag": Tag,
    "Subgoal": Subgoal,
}
