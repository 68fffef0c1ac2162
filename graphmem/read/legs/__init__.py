"""Retrieval legs: one Cypher round trip per node kind, scoped inside the query by space, status and time."""

from graphmem.read.legs.base import LegRanking, UnitRow
from graphmem.read.legs.lexical import lexical_leg, lucene_query
from graphmem.read.legs.subgoal import subgoal_leg
from graphmem.read.legs.tags import match_tags, tag_document_leg, tag_vote_leg
from graphmem.read.legs.vector import vector_leg

__all__ = [
    "LegRanking",
    "UnitRow",
    "lexical_leg",
    "lucene_query",
    "match_tags",
    "subgoal_leg",
    "tag_document_leg",
    "tag_vote_leg",
    "vector_leg",
]
