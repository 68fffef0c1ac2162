"""`graphmem ingest documents|episodes FILE --space S`: bulk writes from JSON Lines.

A progress bar goes to stderr; the JSON summary (created per label, skipped, failed, seconds,
embed_seconds, db_seconds, llm_tokens) is printed last on stdout. Bad records are rejected by name and the
rest stored (exit 1 with a one-line message naming the first), unless `--strict` rejects the whole file.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from graphmem.cli.jsonl import read_jsonl
from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.write.summary import IngestSummary


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("ingest", help="write documents or episodes from a JSON Lines file")
    kinds = parser.add_subparsers(dest="kind", required=True, metavar="KIND")
    for kind, help_text in (
        ("documents", "dated documents, each stored whole (no LLM)"),
        ("episodes", "trajectories or chat sessions, compiled into facts, subgoals and procedures"),
    ):
        cmd = kinds.add_parser(kind, help=help_text)
        cmd.add_argument("file", metavar="FILE", help="JSON Lines file, or - for stdin")
        cmd.add_argument("--space", required=True, help="target space (tenant)")
        cmd.add_argument("--strict", action="store_true", help="reject the whole file if any record is bad")
        cmd.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
        cmd.set_defaults(handler=_run)


@contextmanager
def progress_bar(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    if not enabled or total == 0:
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=label, unit="rec", file=sys.stderr, leave=False) as bar:
        yield bar.update


def _run(args: argparse.Namespace) -> int:
    from graphmem.memory_graph import MemoryGraph

    records = read_jsonl(args.file)
    graph = MemoryGraph.from_settings(get_settings())
    try:
        with progress_bar(len(records), f"ingest {args.kind}", not args.no_progress) as progress:
            summary: IngestSummary
            if args.kind == "documents":
                summary = graph.ingest_documents(args.space, records, strict=args.strict, progress=progress)
            else:
                summary = graph.ingest_episodes(args.space, records, strict=args.strict, progress=progress)
    finally:
        graph.close()
    print_json(summary.as_dict())
    if summary.failed:
        first = summary.errors[0]
        print(
            f"graphmem: error: {summary.failed} of {len(records)} records rejected"
            f" (first: {first.field}: {first.message})",
            file=sys.stderr,
        )
        return 1
    return 0
