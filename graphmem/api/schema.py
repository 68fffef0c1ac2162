"""The GraphQL schema: the type system (`schema`, what `graphmem export-schema` prints) and the executing
schema with limits and error shaping (`build_schema(settings)`, what the app serves)."""

from __future__ import annotations

import asyncio
from typing import Any

import strawberry
from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext, ExecutionResult

from graphmem.api.errors import ErrorShaping
from graphmem.api.limits import limit_error, validation_extensions
from graphmem.api.memory_roots import MemoryQuery
from graphmem.api.mutation import Mutation
from graphmem.api.nodes import Episode, Episodic, Procedural, Semantic, Subgoal, Tag
from graphmem.api.query import Query as GraphQuery
from graphmem.api.timing import RootLatency
from graphmem.config import Settings

Query = merge_types("Query", (GraphQuery, MemoryQuery))
NODE_TYPES: list[Any] = [Semantic, Procedural, Episodic, Episode, Tag, Subgoal]


class GraphmemSchema(strawberry.Schema):
    query_timeout_s: float | None = None

    def process_errors(self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None) -> None:
        """Logging happens in `ErrorShaping` (unexpected errors only, with the request id)."""

    async def execute(  # type: ignore[override]
        self,
        query: str | None,
        variable_values: dict[str, Any] | None = None,
        context_value: Any | None = None,
        root_value: Any | None = None,
        operation_name: str | None = None,
        **kwargs: Any,
    ) -> ExecutionResult:
        """A query (never a mutation: its write may already have landed) stops after `query_timeout_s`
        with an error naming GRAPHMEM_API_QUERY_TIMEOUT."""
        run = super().execute(query, variable_values, context_value, root_value, operation_name, **kwargs)
        timeout = self.query_timeout_s
        if timeout is None or not is_query(query, operation_name):
            return await run
        try:
            return await asyncio.wait_for(run, timeout)
        except TimeoutError:
            services = getattr(context_value, "services", None)
            if services is not None:
                services.metrics.count_error("QUERY_TIMEOUT")
            message = (
                f"the query ran longer than {timeout:g} s (GRAPHMEM_API_QUERY_TIMEOUT) and was stopped: "
                "ask for smaller pages (first) or fewer nested lists"
            )
            return ExecutionResult(data=None, errors=[limit_error(message, "QUERY_TIMEOUT")])


def is_query(query: str | None, operation_name: str | None) -> bool:
    """Whether the operation to run is a query (a document that does not parse counts as one)."""
    try:
        document = parse(query or "", max_tokens=100_000)
    except GraphQLError:
        return True
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode) and (
            operation_name is None or (definition.name and definition.name.value == operation_name)
        ):
            return definition.operation == OperationType.QUERY
    return True


def build_schema(settings: Settings | None = None) -> strawberry.Schema:
    extensions: list[Any] = [ErrorShaping, RootLatency]
    if settings is not None:
        extensions = [*validation_extensions(settings), ErrorShaping, RootLatency]
    schema = GraphmemSchema(query=Query, mutation=Mutation, types=NODE_TYPES, extensions=extensions)
    if settings is not None:
        schema.query_timeout_s = settings.api_query_timeout_s
    return schema


schema = build_schema()
