"""The parameters a Cypher file declares in its header, checked before it runs.

A file's opening comment may say `Parameters: $space (text); $since, $until (datetime, ...); $limit (integer)`.
Cypher compares a string with a datetime as null, so a wrongly typed parameter would match nothing and the
query would answer an empty, plausible result; a declared parameter of the wrong type is refused by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from graphmem.db.queries import load_query
from graphmem.errors import InvalidInput
from graphmem.timeutil import parse_time

# `$a, $b (datetime ...` — the names, then the first word inside the parenthesis is the type.
_DECLARATION = re.compile(r"((?:\$\w+\s*,\s*)*\$\w+)\s*\(\s*(text|datetimes?|integer)\b(\s+or\s+null)?")
_EXAMPLE = {
    "datetime": "datetime('2024-01-01T00:00:00Z')",
    "integer": "100",
    "text": "'acme'",
}


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str  # text | datetime | integer
    nullable: bool = False


def declared_parameters(text: str) -> tuple[Parameter, ...]:
    """The typed parameters named after `Parameters:` in the file's opening `//` comment (none if it has none)."""
    header: list[str] = []
    for line in text.lstrip().splitlines():
        if not line.lstrip().startswith("//"):
            break
        header.append(line.lstrip()[2:].strip())
    comment = " ".join(header)
    _, found, declaration = comment.partition("Parameters:")
    if not found:
        return ()
    params = []
    for names, kind, nullable in _DECLARATION.findall(declaration):
        for name in re.findall(r"\$(\w+)", names):
            params.append(Parameter(name, kind.rstrip("s"), bool(nullable)))
    return tuple(params)


@cache
def query_parameters(name: str) -> tuple[Parameter, ...]:
    """`declared_parameters` of the named file, read once."""
    return declared_parameters(load_query(name))


def check_parameters(declared: tuple[Parameter, ...], params: dict[str, Any]) -> None:
    """Raise `InvalidInput` naming the first declared parameter that is missing or of another type."""
    for p in declared:
        if p.name not in params:
            raise InvalidInput(p.name, f"missing: the query needs ${p.name} ({p.type}), e.g. {_EXAMPLE[p.type]}")
        value = params[p.name]
        if value is None and p.nullable:
            continue
        problem = _type_problem(p, value)
        if problem:
            raise InvalidInput(p.name, problem)


def _type_problem(p: Parameter, value: Any) -> str | None:
    got = "null" if value is None else f"{type(value).__name__} {str(value)[:40]!r}"
    if p.type == "datetime":
        if hasattr(value, "tzinfo") and hasattr(value, "year"):  # datetime.datetime or neo4j.time.DateTime
            if value.tzinfo is None:
                return f"a datetime needs a time zone (a naive one never equals a stored time), got {got}"
            return None
        return (
            f"must be a datetime, not {got} (a string compares as null, so the query would answer nothing): "
            f"in Neo4j Browser `:param {p.name} => {_EXAMPLE['datetime']}`"
        )
    if p.type == "integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return None
        return f"must be an integer, not {got} (in Neo4j Browser `:param {p.name} => 100`)"
    if isinstance(value, str):
        return None
    return f"must be text, not {got}"


def coerce_text_parameters(declared: tuple[Parameter, ...], params: dict[str, Any]) -> dict[str, Any]:
    """Parameters typed on a command line as text: ISO 8601 strings become datetimes where one is declared
    (a bad one is refused by name); everything else stays as given."""
    coerced = dict(params)
    for p in declared:
        value = coerced.get(p.name)
        if p.type == "datetime" and isinstance(value, str):
            coerced[p.name] = parse_time(p.name, value)
    return coerced
