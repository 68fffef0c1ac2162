"""JSON values graphmem keeps as text (a document's `metadata`): the bounds every reader can rely on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Bounded so that every reader can decode and re-encode the value: one stored value nested ~960 levels
# once broke every listing of its space.
METADATA_MAX_DEPTH = 20
METADATA_MAX_BYTES = 65_536


def json_depth(value: Any, limit: int) -> int:
    """How deeply `value` nests lists and objects (a scalar: 0), counted without recursion and only up
    to `limit + 1`, so a hostile value costs no more than a permitted one."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping | list | tuple):
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit:
                return deepest
            children = item.values() if isinstance(item, Mapping) else item
            stack.extend((child, depth) for child in children)
    return deepest
