"""`graphmem cypher "QUERY" [--param k=v]`: a read-only Cypher console for operators and analysts.

A statement passes two guards: parsing (`graphmem.db.readonly`: no LOAD CSV, transaction management,
writes, admin commands or procedures off the read-only list), then `EXPLAIN` (the planner must call it a
read). Results holding API key nodes are refused too. A refusal prints one line and exits 2; a server error
prints one line and exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.db import Store
from graphmem.db.query_params import check_parameters, coerce_text_parameters, declared_parameters
from graphmem.db.readonly import DBMS_MODE_PROCEDURES, procedures_called, refusal
from graphmem.errors import InvalidInput
from graphmem.model.nodes import HIDDEN_LABELS

EXIT_REFUSED = 2


class Refused(InvalidInput):
    """The statement is not one the read-only console runs."""

    def __init__(self, reason: str) -> None:
        super().__init__("query", reason)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("cypher", help="run a read-only Cypher query; one JSON object per row")
    parser.add_argument("query")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="JSON or plain text value")
    parser.set_defaults(handler=_run)


def parse_params(pairs: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.isidentifier():
            raise InvalidInput("--param", f"{pair!r} is not NAME=VALUE")
        try:
            params[key] = json.loads(raw)
        except json.JSONDecodeError:
            params[key] = raw
    return params


def run_read_only(store: Store, query: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of a statement both guards call a read, run in a read transaction.

    Parameters the query's header declares (the `cypher/audit/` files do) are typed first: an ISO 8601
    string becomes the datetime it names. Raises `Refused` when parsing or EXPLAIN refuses it,
    `InvalidInput` naming a parameter of the wrong type, or (field `query`) when the server rejects or fails it.
    """
    from neo4j.exceptions import Neo4jError

    reason = refusal(query)
    if reason is not None:
        raise Refused(reason)
    declared = declared_parameters(query)
    params = coerce_text_parameters(declared, params)
    check_parameters(declared, params)
    try:
        kind = store.explain_query_type(query, **params)
    except Neo4jError as exc:
        raise InvalidInput("query", _one_line(exc.message or str(exc))) from None
    dbms_read = kind == "s" and bool(procedures_called(query) & DBMS_MODE_PROCEDURES)
    if kind != "r" and not dbms_read:
        raise Refused(f"the planner says the query is not read-only (query type {kind!r})")
    try:
        records = store.read_transaction(lambda tx: list(tx.run(query, params)))
    except Neo4jError as exc:
        raise InvalidInput("query", _one_line(exc.message or str(exc))) from None
    if any(_shows_hidden(value) for record in records for value in record.values()):
        raise Refused(f"the result holds {'/'.join(HIDDEN_LABELS)} nodes (API keys), which the console never shows")
    return [record.data() for record in records]


def _shows_hidden(value: Any) -> bool:
    """Does a result value hold a node with a hidden label (API keys), however nested (paths, lists, maps)?"""
    from neo4j.graph import Node, Path, Relationship

    if isinstance(value, Node):
        return bool(value.labels & set(HIDDEN_LABELS))
    if isinstance(value, Path):
        return any(_shows_hidden(node) for node in value.nodes)
    if isinstance(value, Relationship):
        return any(_shows_hidden(node) for node in (value.start_node, value.end_node) if node is not None)
    if isinstance(value, list):
        return any(_shows_hidden(item) for item in value)
    if isinstance(value, dict):
        return any(_shows_hidden(item) for item in value.values())
    return False


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _run(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    with Store.from_settings(get_settings()) as store:
        try:
            rows = run_read_only(store, args.query, params)
        except Refused as exc:
            print(f"graphmem: refused: {exc.message}", file=sys.stderr)
            return EXIT_REFUSED
    for row in rows:
        print_json(row)
    return 0
