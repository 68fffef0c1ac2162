"""`graphmem bench quality --dataset D --data PATH [--limit N] [--offset N] [--half a|b] [--scopes S1,S2]
[--variants v1,v2] [--ablate] [--out FILE] [--keep] [--run-id ID [--reuse]]`.

`register_quality(bench_subparsers)` adds the subcommand to the `bench` group; the run prints a table
(progress goes to stderr) and writes JSON in the INTERFACES.md benchmark shape.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from graphmem.bench.quality.datasets import (
    DATASETS,
    half_benchmark,
    load_benchmark,
    sample_benchmark,
    select_scopes,
)
from graphmem.bench.quality.machine import machine_info
from graphmem.bench.quality.report import render
from graphmem.bench.quality.runner import run_benchmark
from graphmem.bench.quality.system import (
    DEFAULT_VARIANTS,
    VARIANTS,
    ablation_variants,
    default_variants,
    is_variant,
    recipe_of,
)
from graphmem.config import get_settings
from graphmem.errors import InvalidInput
from graphmem.read.pipeline import recipe
from graphmem.read.pipeline.config import SWITCHABLE
from graphmem.read.pipeline.recipes import ABLATION
from graphmem.timeutil import iso, utc_now


def register_quality(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("quality", help="retrieval quality on a benchmark dataset; prints a table, writes JSON")
    parser.add_argument("--dataset", required=True, help=" | ".join(DATASETS))
    parser.add_argument("--data", required=True, type=Path, help="the dataset file (read in place, never copied)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument(
        "--offset", type=int, default=0, help="skip the file's first N questions (hotpotqa, musique): a held-out half"
    )
    parser.add_argument(
        "--sample", type=int, default=None, help="N questions spread evenly through the file (every type kept)"
    )
    parser.add_argument(
        "--half", choices=("a", "b"), default=None, help="one of two halves: questions alternate within each type"
    )
    parser.add_argument("--scopes", default=None, help="comma-separated scope names (question / conversation ids)")
    parser.add_argument(
        "--variants",
        default=None,
        help=f"comma-separated, of: {', '.join(VARIANTS)}, reason@TOKENS, RECIPE-no:STAGE (default: "
        f"{','.join(DEFAULT_VARIANTS)}, plus hybrid+asof for versioned)",
    )
    parser.add_argument(
        "--ablate",
        action="store_true",
        help="add hybrid with each stage, plan switch and leg switched off in turn (hybrid+asof too for versioned)",
    )
    parser.add_argument("--out", type=Path, default=None, help="write the JSON result here")
    parser.add_argument("--keep", action="store_true", help="keep the run's spaces (default: drop them)")
    parser.add_argument("--run-id", default=None, help="names the run's spaces bench-<dataset>-<run id>-<n>")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="rank in the spaces a --keep run of this --run-id (same selection) left; ingest only missing ones",
    )
    parser.set_defaults(handler=run_quality_command)


def parse_variants(value: str) -> list[str]:
    """Variant names, split on commas outside an ablation's stage list (`hybrid-no:cover,dates` is one)."""
    names: list[str] = []
    for part in (v.strip() for v in value.split(",")):
        if not part:
            continue
        if names and ABLATION in names[-1] and not is_variant(part) and part in SWITCHABLE:
            names[-1] += f",{part}"
        else:
            names.append(part)
    unknown = [v for v in names if not is_variant(v)]
    if not names or unknown:
        raise InvalidInput("--variants", f"{', '.join(unknown) or value!r} not among {', '.join(VARIANTS)}")
    settings = get_settings()
    for name in names:
        if ABLATION in name:
            try:
                recipe(recipe_of(name)[0], settings)  # an unknown stage fails here, before any ingest
            except InvalidInput as error:
                raise InvalidInput("--variants", error.message) from None
    return list(dict.fromkeys(names))


def with_ablations(variants: list[str], dataset: str) -> list[str]:
    """`variants` plus hybrid (and hybrid+asof for versioned) with each ablation switched off in turn."""
    extra = ablation_variants("hybrid")
    if dataset == "versioned":
        extra += ablation_variants("hybrid+asof")
    return list(dict.fromkeys([*variants, *extra]))


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _quiet_tokenizer_warnings() -> None:
    """Token counts read whole texts past the model's window on purpose; the tokenizer's warning is noise."""
    try:
        from transformers.utils import logging as transformers_logging
    except ImportError:  # pragma: no cover - a dependency of sentence-transformers
        return
    transformers_logging.set_verbosity_error()


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_quality_command(args: argparse.Namespace) -> int:
    from graphmem.bench.quality.graphmem_system import open_graphmem_system

    _quiet_tokenizer_warnings()
    variants = parse_variants(args.variants) if args.variants else list(default_variants(args.dataset))
    if args.ablate:
        variants = with_ablations(variants, args.dataset)
    if args.run_id is not None and not args.run_id.replace("-", "").isalnum():
        raise InvalidInput("--run-id", "letters, digits and '-' only")
    if args.reuse and args.run_id is None:
        raise InvalidInput("--reuse", "needs the --run-id of the kept run")
    benchmark = load_benchmark(args.dataset, args.data, args.limit, args.offset)
    if args.scopes:
        benchmark = select_scopes(benchmark, [s.strip() for s in args.scopes.split(",") if s.strip()])
    if args.half is not None:
        benchmark = half_benchmark(benchmark, args.half)
    if args.sample is not None:
        benchmark = sample_benchmark(benchmark, args.sample)
    if not benchmark.questions:
        raise InvalidInput("--data", f"{args.data} holds no scorable {args.dataset} question")
    run_id = args.run_id or uuid.uuid4().hex[:8]
    started_at = utc_now()
    clock = time.perf_counter()
    _log(
        f"bench quality {benchmark.name}: {len(benchmark.scopes)} spaces, "
        f"{len(benchmark.questions)} questions, variants {', '.join(variants)}, run {run_id}"
    )
    with open_graphmem_system() as system:
        outcome = run_benchmark(
            benchmark,
            system,
            variants,
            run_id=run_id,
            count_tokens=system.embedder.count_tokens,
            keep=args.keep,
            reuse=args.reuse,
            log=_log,
        )
        result: dict[str, Any] = {
            "command": "graphmem bench quality " + shlex.join(_argv(args)),
            "dataset": benchmark.name,
            "data": str(args.data),
            "data_sha256": file_sha256(args.data),
            "limit": args.limit,
            "offset": args.offset,
            "sample": args.sample,
            "half": args.half,
            "scopes": args.scopes,
            "started_at": iso(started_at),
            "elapsed_s": round(time.perf_counter() - clock, 1),
            "run_id": run_id,
            "machine": machine_info(system.server_version),
            "embedder": system.embedder.name,
            "loader_notes": dict(benchmark.notes),
            "ingest": outcome.ingest,
            "spaces_kept": outcome.spaces,
            "variants": outcome.variants,
        }
    print(render(result))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        _log(f"wrote {args.out}")
    return 0


def _argv(args: argparse.Namespace) -> list[str]:
    """The flags of this run, spelled out in full (defaults included), so the command reruns as is."""
    variants = args.variants or ",".join(default_variants(args.dataset))
    argv = ["--dataset", args.dataset, "--data", str(args.data), "--variants", variants]
    if args.limit is not None:
        argv += ["--limit", str(args.limit)]
    if args.offset:
        argv += ["--offset", str(args.offset)]
    if args.scopes:
        argv += ["--scopes", args.scopes]
    if args.half is not None:
        argv += ["--half", args.half]
    if args.sample is not None:
        argv += ["--sample", str(args.sample)]
    if args.out is not None:
        argv += ["--out", str(args.out)]
    if args.keep:
        argv.append("--keep")
    if args.ablate:
        argv.append("--ablate")
    if args.run_id is not None:
        argv += ["--run-id", args.run_id]
    if args.reuse:
        argv.append("--reuse")
    return argv
