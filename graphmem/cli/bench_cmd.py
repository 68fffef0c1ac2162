"""`graphmem bench SUBCOMMAND`: benchmark scripts that print a table and write JSON.

Each subcommand lives with its benchmark and is listed in `BENCH_SUBCOMMANDS` as "module:function", the
function taking the `bench` group's subparsers (like `register` in the command modules).
"""

from __future__ import annotations

import argparse
import importlib

BENCH_SUBCOMMANDS = (
    "graphmem.bench.ingest:register_ingest",
    "graphmem.bench.quality.cli:register_quality",
    "graphmem.bench.perf:register_perf",
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="benchmarks: print a table, write JSON")
    bench = parser.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    for entry in BENCH_SUBCOMMANDS:
        module_name, _, function = entry.partition(":")
        getattr(importlib.import_module(module_name), function)(bench)
