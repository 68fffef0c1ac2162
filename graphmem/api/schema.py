"""The GraphQL schema: the type system (`schema`, what `graphmem export-schema` prints) and the executing
schema with limits and error shaping (`build_schema(settings)`, what the app serves)."""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

from graphmem.api.errors import ErrorShaping
from graphmem.api.limits import validation_extensions
from graphmem.api.memory_roots import MemoryQuery
from graphmem.api.mutation import Mutation
from graphmem.api.nodes import Episode, Episodic, Procedural, Semantic, Subgoal, Tag
from graphmem.api.query import Query as GraphQuery
from graphmem.api.timing import RootLatency
from graphmem.config import Settings

Query = merge_types("Query", (GraphQuery, MemoryQuery))
NODE_TYPES: list[Any] = [Semantic, Procedural, Episodic, Episode, Tag, Subgoal]


class GraphmemSchema(strawberry.Schema):
    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        """Logging happens in `ErrorShaping` (unexpected errors only, with the request id)."""


def build_schema(settings: Settings | None = None) -> strawberry.Schema:
    extensions: list[Any] = [ErrorShaping, RootLatency]
    if settings is not None:
        extensions = [*validation_extensions(settings), ErrorShaping, RootLatency]
    return GraphmemSchema(query=Query, mutation=Mutation, types=NODE_TYPES, extensions=extensions)


schema = build_schema()
