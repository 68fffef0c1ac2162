"""`graphmem recall "TEXT" --space S [--as-of T] [--known-at T] [--mode M] [--k N]`: ranked memory as JSON.

Prints one JSON object: the hits (id, kind, text, score, per-leg signals, value-model parts, event_at,
author, validity), expanded episodes, related artefacts (versions, same thread), contradictions between
authors and the packed evidence (items, characters, tokens), so a ranking can be explained.
`--sources` ranks sessions / documents instead of units; `--recipe` (alias `--variant`) names the ranking.
"""

from __future__ import annotations

import argparse

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.read.pipeline import RECIPES
from graphmem.read.planner import MODES


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("recall", help="ranked memory for a question, as JSON (per-leg signals included)")
    parser.add_argument("text", help="the question or query")
    parser.add_argument("--space", required=True, help="space (tenant) to read")
    parser.add_argument("--as-of", default=None, help="valid time, ISO 8601 (default: now)")
    parser.add_argument("--known-at", default=None, help="record time, ISO 8601 (default: now)")
    parser.add_argument("--mode", default="auto", choices=MODES)
    parser.add_argument("--k", type=int, default=10, help="how many items (default 10)")
    parser.add_argument(
        "--recipe",
        "--variant",
        dest="variant",
        default="hybrid",
        help=f"recipe: {', '.join(RECIPES)}, or RECIPE-no:STAGE to switch one stage off (default hybrid)",
    )
    parser.add_argument("--budget", type=int, default=None, help="evidence token budget (default: none)")
    parser.add_argument("--budget-chars", type=int, default=None, help="evidence character budget (default 40000)")
    parser.add_argument("--no-related", action="store_true", help="leave the hits' versions and threads out")
    parser.add_argument("--hops", type=int, default=1, help="multi-hop rounds (1-3)")
    parser.add_argument("--sources", action="store_true", help="rank sessions / documents instead of units")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from graphmem.memory_graph import MemoryGraph
    from graphmem.read.asof import AsOf
    from graphmem.read.pipeline import recipe

    AsOf.resolve(args.as_of, args.known_at)  # bad dates and recipes fail before the embedding model loads
    settings = get_settings()
    if not args.sources:
        recipe(args.variant, settings)
    graph = MemoryGraph.from_settings(settings)
    try:
        if args.sources:
            sources = graph.recall_sources(
                args.text, args.space, as_of=args.as_of, known_at=args.known_at, k=args.k, variant=args.variant
            )
            print_json({"query": args.text, "sources": [s.to_dict() for s in sources]}, indent=args.indent)
            return 0
        result = graph.recall(
            args.text,
            args.space,
            as_of=args.as_of,
            known_at=args.known_at,
            mode=args.mode,
            k=args.k,
            variant=args.variant,
            token_budget=args.budget,
            char_budget=args.budget_chars,
            related=not args.no_related,
            hops=args.hops,
        )
        print_json(result.to_dict(), indent=args.indent)
    finally:
        graph.close()
    return 0
