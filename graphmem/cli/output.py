"""JSON output for commands: one object per line, Neo4j values made readable."""

from __future__ import annotations

import json
import sys
from datetime import date, datetime
from typing import Any

from neo4j.graph import Node, Path, Relationship


def to_jsonable(value: Any) -> Any:
    if isinstance(value, Node):
        return {"labels": sorted(value.labels), **{k: to_jsonable(v) for k, v in value.items()}}
    if isinstance(value, Relationship):
        return {"type": value.type, **{k: to_jsonable(v) for k, v in value.items()}}
    if isinstance(value, Path):
        return [to_jsonable(n) for n in value.nodes]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def print_json(value: Any, *, indent: int | None = None) -> None:
    sys.stdout.write(json.dumps(to_jsonable(value), ensure_ascii=False, indent=indent) + "\n")
    sys.stdout.flush()
