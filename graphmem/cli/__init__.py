"""`graphmem` command line. Each command group lives in its own module with a `register(subparsers)`."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from graphmem.errors import GraphmemError

COMMAND_MODULES = (
    "graphmem.cli.neo4j_cmd",
    "graphmem.cli.schema_cmd",
    "graphmem.cli.cypher_cmd",
    "graphmem.cli.serve_cmd",
    "graphmem.cli.keys_cmd",
    "graphmem.cli.ingest_cmd",
    "graphmem.cli.bench_cmd",
    "graphmem.cli.evolution_cmd",
    "graphmem.cli.recall_cmd",
    "graphmem.cli.mcp_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="graphmem", description="Knowledge memory for LLM agents on Neo4j")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(sub)
    return parser


def _settings_error_line(exc: ValidationError) -> str:
    first = exc.errors()[0]
    name = ".".join(str(p) for p in first["loc"]) or "settings"
    return f"invalid setting {name}: {first['msg']}"


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.handler(args)
    except GraphmemError as exc:
        print(f"graphmem: error: {exc}", file=sys.stderr)
        return 1
    except ValidationError as exc:
        print(f"graphmem: error: {_settings_error_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
