"""The graph's schema, declared once: labels, properties and relationships as neomodel classes.

Cypher files under `cypher/` use exactly these names; `tests/unit/test_model_schema.py` checks that
every label, relationship type and indexed property they mention is declared here.

Conventions shared by every node: `id` (stable, content-derived where content defines identity, unique
per label within a space: `(space, id)` is the key), `space` (tenant; every query filters on it),
`recorded_at` / `expired_at` (record time: when the service learned / stopped holding it) and `caption`
(a short readable line for Neo4j Browser).
Versioned kinds (Episodic, Semantic, Procedural) add valid time `valid_from` / `valid_to` and `status`.
"Still current" is the far-future sentinel `graphmem.timeutil.FAR_FUTURE`, never null, so an as-of
filter is two range comparisons an index can serve.
"""

from __future__ import annotations

from typing import Any

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateTimeProperty,
    FloatProperty,
    IntegerProperty,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
)

STATUS_ACTIVE = "active"
STATUS_SUPERSEDED = "superseded"
STATUS_MERGED = "merged"
STATUSES = (STATUS_ACTIVE, STATUS_SUPERSEDED, STATUS_MERGED)


class Supersedes(StructuredRel):
    """(newer)-[:SUPERSEDES]->(older): the newer version replaced the older one at `at`."""

    at = DateTimeProperty(required=True)
    recorded_at = DateTimeProperty(required=True)
    kind = StringProperty(required=True, help_text="explicit | conflict | document")
    reason = StringProperty()
    by = StringProperty()


class MergedFrom(StructuredRel):
    """(merged)-[:MERGED_FROM]->(source): consolidation folded `source` into `merged`."""

    at = DateTimeProperty(required=True)
    recorded_at = DateTimeProperty(required=True)


class GraphNode(StructuredNode):
    """Properties every graphmem node carries."""

    __abstract_node__ = True

    uid = StringProperty(db_property="id", index=True, required=True, help_text="unique with `space`")
    space = StringProperty(index=True, required=True)
    caption = StringProperty(help_text="short readable line shown in Neo4j Browser")
    recorded_at = DateTimeProperty(index=True, required=True)
    expired_at = DateTimeProperty(index=True, required=True)


class VersionedNode(GraphNode):
    """Valid time and status for the kinds that can be superseded or merged."""

    __abstract_node__ = True

    valid_from = DateTimeProperty(index=True, required=True)
    valid_to = DateTimeProperty(index=True, required=True)
    status = StringProperty(index=True, required=True, choices={s: s for s in STATUSES})
    embedding = ArrayProperty(FloatProperty())


class Episode(GraphNode):
    """One trajectory, chat session or document batch."""

    goal = StringProperty()
    kind = StringProperty(help_text="trajectory | chat | documents")
    source = StringProperty()
    session_id = StringProperty(index=True)
    started_at = DateTimeProperty(index=True)
    ended_at = DateTimeProperty()
    outcome = FloatProperty()
    content_hash = StringProperty(help_text="digest of what identifies the episode; same id + other hash = conflict")


class Episodic(VersionedNode):
    """One raw evidence unit: a trajectory step, a chat turn, or a whole document."""

    kind = StringProperty(required=True, help_text="step | turn | document")
    text = StringProperty()
    action = StringProperty()
    observation = StringProperty()
    subgoal = StringProperty()
    state = StringProperty()
    reward = FloatProperty()
    importance = FloatProperty(help_text="documents: the caller's weight in [0, 1] (absent = 1)")
    author = StringProperty()
    source = StringProperty()
    event_at = DateTimeProperty(index=True)
    dated = BooleanProperty(
        help_text="documents: false when the writer gave no event_at (it is then the ingest time); absent = dated"
    )
    seq = IntegerProperty()
    content_hash = StringProperty(index=True)
    metadata = StringProperty(help_text="JSON object as given at ingest")

    episode = RelationshipTo("Episode", "PART_OF")
    next = RelationshipTo("Episodic", "NEXT")
    # (later)-[:REPEATS]->(earlier): the same text stored again under its own id, author or date.
    repeats = RelationshipTo("Episodic", "REPEATS")
    supersedes = RelationshipTo("Episodic", "SUPERSEDES", model=Supersedes)


class Semantic(VersionedNode):
    """One proposition: what is true, with its evidence."""

    text = StringProperty(required=True)
    content_hash = StringProperty(help_text="digest of `text`: a sentence seen again reuses its stored embedding")
    author = StringProperty()
    event_at = DateTimeProperty(index=True)
    credibility = FloatProperty(default=1.0)
    importance = FloatProperty(default=1.0, help_text="importance_weight x (independent sources + uses)")
    importance_weight = FloatProperty(help_text="the caller's weight in [0, 1] at write time (absent = 1)")

    evidence = RelationshipTo("Episodic", "EVIDENCED_BY")
    siblings = RelationshipTo("Semantic", "SIBLING")
    tags = RelationshipFrom("Tag", "TAGS")
    supersedes = RelationshipTo("Semantic", "SUPERSEDES", model=Supersedes)
    merged_from = RelationshipTo("Semantic", "MERGED_FROM", model=MergedFrom)


class Tag(GraphNode):
    """A short verbatim key (entity, attribute, verb); `norm_name` is its de-duplication key."""

    name = StringProperty(required=True)
    norm_name = StringProperty(index=True, required=True)
    embedding = ArrayProperty(FloatProperty())
    importance = FloatProperty(default=1.0)

    facts = RelationshipTo("Semantic", "TAGS")


class Subgoal(GraphNode):
    """An abstract intent; procedures are routed by it."""

    text = StringProperty(required=True)
    embedding = ArrayProperty(FloatProperty())
    importance = FloatProperty(default=1.0)
    members = IntegerProperty(default=1, help_text="subgoal texts clustered into this one")

    procedures = RelationshipTo("Procedural", "HAS_PROCEDURE")


class Procedural(VersionedNode):
    """A reusable insight / how-to for a subgoal, with the return it has earned."""

    text = StringProperty(required=True)
    goal = StringProperty()
    credibility = FloatProperty(default=1.0)
    importance = FloatProperty(default=1.0, help_text="importance_weight x (independent sources + uses)")
    importance_weight = FloatProperty(help_text="the caller's weight in [0, 1] at write time (absent = 1)")
    ret = FloatProperty(db_property="return", default=0.0)
    uses = IntegerProperty(default=0)

    evidence = RelationshipTo("Episodic", "EVIDENCED_BY")
    supersedes = RelationshipTo("Procedural", "SUPERSEDES", model=Supersedes)
    merged_from = RelationshipTo("Procedural", "MERGED_FROM", model=MergedFrom)


class AuditRecord(GraphNode):
    """An audited destructive operation (the tenant erase `forget`): who removed what from a space, and when.

    Kept out of NODE_CLASSES: it is bookkeeping, not memory, and no read path returns it.
    """

    action = StringProperty(required=True, help_text="forget")
    by = StringProperty(required=True)
    reason = StringProperty(help_text="why, as the requester gave it")
    at = DateTimeProperty(index=True, required=True, help_text="when the erasure started")
    completed_at = DateTimeProperty()
    resumed_at = DateTimeProperty(help_text="when a rerun last continued an unfinished erasure")
    state = StringProperty(index=True, help_text="started | completed (started = died midway: rerun to finish)")
    target_kind = StringProperty(help_text="id | author | all")
    target = StringProperty(help_text="the id or author the action named ('*' for a whole space)")
    removed = StringProperty(help_text="JSON object: label -> removed ids")
    removed_counts = StringProperty(help_text="JSON object: label -> number removed")
    batches = IntegerProperty(help_text="transactions (batches) done so far")
    runs = IntegerProperty(help_text="runs it took (more than 1 when resumed)")


class ApiKey(StructuredNode):
    """A service API key, stored hashed: outside every space (no `space` property), so no tenant read matches it.

    Kept out of NODE_CLASSES: it is configuration, not memory. `key_id` is unique (cypher/schema/constraints).
    """

    key_id = StringProperty(unique_index=True, required=True, help_text="the public part of gmk_<key_id>_<secret>")
    sha256 = StringProperty(required=True, help_text="hex sha256 of the whole key; the key itself is never stored")
    scopes = ArrayProperty(StringProperty(), required=True, help_text="read | write | admin")
    spaces = ArrayProperty(StringProperty(), required=True, help_text="space names, prefix* patterns or *")
    name = StringProperty(help_text="a label to recognise the key by")
    created_at = DateTimeProperty(required=True)
    revoked_at = DateTimeProperty(help_text="set once, never cleared: a revoked key stays refused")


# Labels a tenant never reads and the `graphmem cypher` console never returns.
HIDDEN_LABELS: tuple[str, ...] = (ApiKey.__name__,)


NODE_CLASSES: tuple[type[GraphNode], ...] = (Episode, Episodic, Semantic, Tag, Subgoal, Procedural)
LABELS: tuple[str, ...] = tuple(cls.__name__ for cls in NODE_CLASSES)
EMBEDDED_LABELS: tuple[str, ...] = tuple(
    cls.__name__ for cls in NODE_CLASSES if "embedding" in cls.defined_properties(rels=False, aliases=False)
)
VERSIONED_LABELS: tuple[str, ...] = tuple(cls.__name__ for cls in NODE_CLASSES if issubclass(cls, VersionedNode))


def relationship_types() -> set[str]:
    """Every relationship type declared on the model classes."""
    types: set[str] = set()
    for cls in NODE_CLASSES:
        for rel in cls.defined_properties(aliases=False, properties=False).values():
            types.add(rel.definition["relation_type"])
    return types


def property_names(label: str) -> set[str]:
    cls = next(c for c in NODE_CLASSES if c.__name__ == label)
    return {prop.get_db_property_name(name) for name, prop in cls.defined_properties(rels=False, aliases=False).items()}


def declared_names() -> dict[str, list[str]]:
    """Every label, relationship type and property key this module declares (for `schema install`, which
    creates them as names so a fresh database plans queries that mention them without warnings)."""
    classes = [c for c in globals().values() if isinstance(c, type) and c.__module__ == __name__]
    nodes = [c for c in classes if issubclass(c, StructuredNode) and "__label__" in c.__dict__]  # not abstract
    rels = [c for c in classes if issubclass(c, StructuredRel) and c is not StructuredRel]
    owners: list[Any] = [*nodes, *rels]
    properties = {
        prop.get_db_property_name(name) if hasattr(prop, "get_db_property_name") else name
        for cls in owners
        for name, prop in cls.defined_properties(rels=False, aliases=False).items()
    }
    types = {
        rel.definition["relation_type"]
        for cls in nodes
        for rel in cls.defined_properties(aliases=False, properties=False).values()
    }
    return {
        "labels": sorted(c.__name__ for c in nodes),
        "types": sorted(types),
        "properties": sorted(properties),
    }
