"""The graph schema: node and relationship classes, the one source of truth for names."""

from graphmem.model.nodes import (
    EMBEDDED_LABELS,
    LABELS,
    NODE_CLASSES,
    STATUS_ACTIVE,
    STATUS_MERGED,
    STATUS_SUPERSEDED,
    STATUSES,
    VERSIONED_LABELS,
    Episode,
    Episodic,
    Procedural,
    Semantic,
    Subgoal,
    Tag,
    property_names,
    relationship_types,
)

__all__ = [
    "EMBEDDED_LABELS",
    "LABELS",
    "NODE_CLASSES",
    "STATUSES",
    "STATUS_ACTIVE",
    "STATUS_MERGED",
    "STATUS_SUPERSEDED",
    "VERSIONED_LABELS",
    "Episode",
    "Episodic",
    "Procedural",
    "Semantic",
    "Subgoal",
    "Tag",
    "property_names",
    "relationship_types",
]
