"""`graphmem cypher "QUERY" [--param k=v]`: a read-only Cypher console for operators and analysts."""

from __future__ import annotations

import argparse
import json
from typing import Any

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.db import Store
from graphmem.errors import InvalidInput


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
    """Refuse anything the planner says writes (EXPLAIN first), then run in a read transaction."""
    from neo4j.exceptions import ClientError

    try:
        kind = store.explain_query_type(query, **params)
    except ClientError as exc:
        raise InvalidInput("query", exc.message or str(exc)) from None
    if kind != "r":
        raise InvalidInput("query", f"refused: the query is not read-only (query type {kind!r})")
    return store.read_transaction(lambda tx: [r.data() for r in tx.run(query, params)])


def _run(args: argparse.Namespace) -> int:
    params = parse_params(args.param)
    with Store.from_settings(get_settings()) as store:
        for row in run_read_only(store, args.query, params):
            print_json(row)
    return 0
