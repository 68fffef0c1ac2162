"""Request limits: query depth, tokens, aliases and cost (refused before execution), the largest page,
text and batch sizes, the response size and the time a query may run. All come from settings
(GRAPHMEM_API_MAX_*, GRAPHMEM_API_QUERY_TIMEOUT); going over one is a clear error naming the limit."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from graphql import ExecutionResult as GraphQLExecutionResult
from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLUnionType,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
)
from strawberry.extensions import MaxAliasesLimiter, MaxTokensLimiter, QueryDepthLimiter, SchemaExtension

from graphmem.config import Settings
from graphmem.errors import InvalidInput

DEFAULT_FIRST = 20
# What a list without a `first` argument (a fact's tags, its evidence, its versions) is assumed to hold
# when a query's cost is estimated.
UNPAGED_LIST_COST = 10


def validation_extensions(settings: Settings) -> list[Any]:
    """Factories of strawberry extensions that refuse a document before it runs."""
    return [
        lambda: MaxTokensLimiter(max_token_count=settings.api_max_tokens),
        lambda: QueryDepthLimiter(max_depth=settings.api_max_depth),
        lambda: MaxAliasesLimiter(max_alias_count=settings.api_max_aliases),
        lambda: QueryCost(settings),
    ]


def limit_error(message: str, code: str = "QUERY_TOO_COMPLEX") -> GraphQLError:
    """A refusal by a request limit, as clients see it (no request id needed: nothing ran)."""
    return GraphQLError(message, extensions={"code": code})


class QueryCost(SchemaExtension):
    """Refuses an operation whose estimated cost is over GRAPHMEM_API_MAX_COST before anything runs.

    The cost is the number of fields the answer can hold: each field counts once per item of every list
    above it; a list counts its `first` (its default when not given), and a list without `first` counts
    `UNPAGED_LIST_COST`. A `first` on a field that returns an object (a connection, a recall result) sizes
    the first list below it (`edges`, `hits`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None:
            cost = query_cost(
                context.schema._schema,
                document.definitions,
                context.operation_name,
                context.variables or {},
                self.settings.api_max_first,
            )
            limit = self.settings.api_max_cost
            if cost > limit:
                message = (
                    f"query cost {cost:,} exceeds the limit of {limit:,} (GRAPHMEM_API_MAX_COST): "
                    "ask for smaller pages (first) or fewer nested lists"
                )
                context.result = GraphQLExecutionResult(data=None, errors=[limit_error(message)])
        yield


def query_cost(
    schema: GraphQLSchema,
    definitions: Sequence[Any],
    operation_name: str | None,
    variables: Mapping[str, Any],
    max_first: int,
) -> int:
    """The estimated cost of the operation to run (see `QueryCost`); 0 when there is none to run."""
    fragments = {d.name.value: d for d in definitions if isinstance(d, FragmentDefinitionNode)}
    operations = [d for d in definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name:
        operations = [o for o in operations if o.name and o.name.value == operation_name]
    if len(operations) != 1:
        return 0
    operation = operations[0]
    root = {
        OperationType.QUERY: schema.query_type,
        OperationType.MUTATION: schema.mutation_type,
        OperationType.SUBSCRIPTION: schema.subscription_type,
    }.get(operation.operation)
    if root is None:
        return 0
    walker = _CostWalker(schema, fragments, variables, max_first)
    return walker.selection_cost(root, operation.selection_set, pending=None, seen=frozenset())


class _CostWalker:
    def __init__(
        self,
        schema: GraphQLSchema,
        fragments: dict[str, FragmentDefinitionNode],
        variables: Mapping[str, Any],
        max_first: int,
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.max_first = max_first

    def selection_cost(
        self,
        parent: GraphQLNamedType,
        selections: SelectionSetNode | None,
        *,
        pending: int | None,
        seen: frozenset[str],
    ) -> int:
        """Cost of one item of `parent` with this selection; `pending`: a `first` above, sizing the next list."""
        if selections is None:
            return 0
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                total += self.field_cost(parent, selection, pending=pending, seen=seen)
            elif isinstance(selection, InlineFragmentNode):
                target = parent
                if selection.type_condition is not None:
                    named = self.schema.get_type(selection.type_condition.name.value)
                    target = named if named is not None else parent
                total += self.selection_cost(target, selection.selection_set, pending=pending, seen=seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                fragment = self.fragments.get(name)
                if fragment is None or name in seen:
                    continue
                named = self.schema.get_type(fragment.type_condition.name.value)
                target = named if named is not None else parent
                total += self.selection_cost(target, fragment.selection_set, pending=pending, seen=seen | {name})
        return total

    def field_cost(
        self, parent: GraphQLNamedType, node: FieldNode, *, pending: int | None, seen: frozenset[str]
    ) -> int:
        definition = self._field(parent, node.name.value)
        if definition is None:
            return 1
        output, is_list = _unwrap(definition.type)
        first = self._first(definition, node)
        if is_list:
            size = first or pending or UNPAGED_LIST_COST
            inner = self.selection_cost(output, node.selection_set, pending=None, seen=seen)
            return size * (1 + inner)
        # a `first` on an object (a connection, a recall result) sizes the first list below it (`edges`, `hits`)
        return 1 + self.selection_cost(output, node.selection_set, pending=first or pending, seen=seen)

    def _field(self, parent: GraphQLNamedType, name: str) -> GraphQLField | None:
        if isinstance(parent, GraphQLObjectType | GraphQLInterfaceType):
            return parent.fields.get(name)
        if isinstance(parent, GraphQLUnionType):
            return None  # only __typename can be selected on a union itself
        return None

    def _first(self, definition: GraphQLField, node: FieldNode) -> int | None:
        """The page size a `first` argument asks for (its default when not given); None without one."""
        argument = definition.args.get("first")
        if argument is None:
            return None
        value: Any = None
        given = next((a for a in node.arguments or () if a.name.value == "first"), None)
        if given is None:
            value = argument.default_value
        elif isinstance(given.value, IntValueNode):
            value = given.value.value
        elif isinstance(given.value, VariableNode):
            value = self.variables.get(given.value.name.value)
        try:
            number = int(value) if value is not None else DEFAULT_FIRST
        except (TypeError, ValueError):
            number = DEFAULT_FIRST
        return max(1, min(number, self.max_first))  # beyond the range the resolver refuses by name anyway


def _unwrap(kind: Any) -> tuple[GraphQLNamedType, bool]:
    """The named type under NonNull/List wrappers, and whether any list was among them."""
    is_list = False
    while isinstance(kind, GraphQLNonNull | GraphQLList):
        is_list = is_list or isinstance(kind, GraphQLList)
        kind = kind.of_type
    return kind, is_list


def check_first(settings: Settings, first: int | None, field: str = "first") -> int:
    """A page size in 1..GRAPHMEM_API_MAX_FIRST (default 20)."""
    if first is None:
        return min(DEFAULT_FIRST, settings.api_max_first)
    if first < 1 or first > settings.api_max_first:
        raise InvalidInput(field, f"must be between 1 and {settings.api_max_first} (got {first})")
    return first


def check_text(settings: Settings, field: str, text: str | None, *, required: bool = True) -> str | None:
    """A non-empty text no longer than GRAPHMEM_API_MAX_TEXT_CHARS."""
    if text is None or not text.strip():
        if required:
            raise InvalidInput(field, "must not be empty")
        return text
    if len(text) > settings.api_max_text_chars:
        raise InvalidInput(field, f"is {len(text)} characters; the limit is {settings.api_max_text_chars}")
    return text


def check_batch(settings: Settings, field: str, items: Sequence[Any]) -> None:
    """A non-empty batch no larger than GRAPHMEM_API_MAX_BATCH."""
    if not items:
        raise InvalidInput(field, "must not be empty")
    if len(items) > settings.api_max_batch:
        raise InvalidInput(field, f"has {len(items)} items; the limit is {settings.api_max_batch}")
