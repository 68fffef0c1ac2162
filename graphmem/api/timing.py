"""Latency of each GraphQL request, recorded under its root field(s) in the memory metrics histogram."""

from __future__ import annotations

import time
from collections.abc import Iterator

from graphql import FieldNode, OperationDefinitionNode
from strawberry.extensions import SchemaExtension

from graphmem.observability import MEMORY_METRICS


class RootLatency(SchemaExtension):
    def on_operation(self) -> Iterator[None]:
        started = time.perf_counter()
        yield
        elapsed_ms = (time.perf_counter() - started) * 1000
        document = self.execution_context.graphql_document
        roots: set[str] = set()
        for definition in getattr(document, "definitions", ()) or ():
            if isinstance(definition, OperationDefinitionNode):
                roots.update(s.name.value for s in definition.selection_set.selections if isinstance(s, FieldNode))
        for root in sorted(roots) or ["invalid"]:
            MEMORY_METRICS.observe_root(root, elapsed_ms)
