"""Where one recall's time goes: every leg and lookup of `recall` run one after another in one thread, so
each named query's time is its own and not its neighbours' contention for the two cores.

Usage: python bench/profile_recall.py --facts 100000 [--spaces 1] [--probes 100] [--keep RUN_ID] [--now ISO]

Loads the `graphmem bench perf` generator's graph (`--spaces` spaces, ten by default) into the configured
Neo4j (NEO4J_URI, or the embedded server: GRAPHMEM_NEO4J_PORT / GRAPHMEM_NEO4J_DATA), times `--probes`
recalls (k=10) after an untimed pass, and prints per named query: calls per recall, wall ms per call, and —
for an embedded server on this machine — the Neo4j process's CPU ms per call (from /proc, 10 ms ticks summed
over every call).
It also counts the statements (Bolt round trips) of one recall and checks that each named query ran with
one Cypher text (values travel as parameters, so Neo4j plans each query once).
`--keep RUN_ID` keeps the graph under that run id and reuses it on the next run with the same id;
`--hits-out FILE` writes every probe's answer, so two versions of the read path can be diffed on one graph.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.bench import perf
from graphmem.config import get_settings
from graphmem.db import Store, install_schema
from graphmem.db.queries import load_query
from graphmem.memory_graph import MemoryGraph
from graphmem.read import asof
from graphmem.read.results import RecallResult


class InThread:
    """Stands in for the read path's thread pools: runs each submitted call at once, in the caller."""

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        return [fn(item) for item in items]


def embedded_neo4j_pid(data_dir: Path) -> int | None:
    marker = b"EmbeddedNeo4j.java\x00" + str(data_dir).encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker in Path(f"/proc/{pid}/cmdline").read_bytes():
                return int(pid)
        except OSError:
            continue
    return None


def process_cpu_seconds(pid: int | None) -> float:
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--spaces", type=int, default=perf.SPACES, help="spaces the facts are spread over")
    parser.add_argument("--probes", type=int, default=100)
    parser.add_argument("--keep", metavar="RUN_ID", help="keep the graph under this run id (reused when loaded)")
    parser.add_argument(
        "--hits-out", type=Path, help="write each probe's answer (hits, scores, evidence) here, to diff two versions"
    )
    parser.add_argument(
        "--now",
        help="answer every recall as of this ISO instant (the read path's clock frozen), so the --hits-out of two "
        "runs compare to the last digit (recency otherwise moves scores by ~1e-9 a second)",
    )
    args = parser.parse_args(argv)
    if args.now:
        frozen = datetime.fromisoformat(args.now)
        asof.utc_now = lambda: frozen  # type: ignore[attr-defined]
    settings = get_settings()
    pid = None if settings.neo4j_uri else embedded_neo4j_pid(settings.neo4j_data_dir)
    wall: collections.defaultdict[str, float] = collections.defaultdict(float)
    cpu: collections.defaultdict[str, float] = collections.defaultdict(float)
    calls: collections.Counter[str] = collections.Counter()
    texts: collections.defaultdict[str, set[str]] = collections.defaultdict(set)

    def timed(method: Callable[..., list[dict[str, Any]]]) -> Callable[..., list[dict[str, Any]]]:
        def read(self: Store, name: str, **params: Any) -> list[dict[str, Any]]:
            cpu_before, started = process_cpu_seconds(pid), time.perf_counter()
            texts[name].add(load_query(name))
            try:
                return method(self, name, **params)
            finally:
                wall[name] += time.perf_counter() - started
                cpu[name] += process_cpu_seconds(pid) - cpu_before
                calls[name] += 1

        return read

    # `graphmem.read.recall` the attribute is the function; the module is in sys.modules
    for module in ("graphmem.read.recall", "graphmem.read.pipeline.legs"):
        if module in sys.modules:
            sys.modules[module].leg_pool = InThread  # type: ignore[attr-defined]
    sys.modules["graphmem.read.legs.base"]._kind_pool = InThread  # type: ignore[attr-defined]
    Store.read = timed(Store.read)  # type: ignore[method-assign]
    if hasattr(Store, "read_rows"):  # the named reads that return their rows as one list (not in older trees)
        Store.read_rows = timed(Store.read_rows)  # type: ignore[method-assign]
    with Store.from_settings(settings) as store:
        install_schema(store, 384, settings.vector_quantization)
        embedder = perf.PrecomputedEmbedder(384)
        graph = load_or_reuse(store, args.facts, args.keep, args.spaces)
        memory = MemoryGraph(store, embedder, settings)
        probes = perf.make_probes(graph, embedder, args.probes)
        answers = {probe.text: answer(memory.recall(probe.text, probe.space, k=10)) for probe in probes}
        if args.hits_out:
            args.hits_out.write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        for counter in (wall, cpu, calls):
            counter.clear()
        latencies = []
        python_before, neo4j_before = time.process_time(), process_cpu_seconds(pid)
        statements_before = store.queries_run
        for probe in probes:
            started = time.perf_counter()
            memory.recall(probe.text, probe.space, k=10)
            latencies.append((time.perf_counter() - started) * 1000)
        n = len(probes)
        statements = (store.queries_run - statements_before) / n
        print(f"$ python bench/profile_recall.py {' '.join(argv)}")
        print(
            f"{args.facts:,} facts, {n} recalls one after another: p50 {statistics.median(latencies):.1f} ms, "
            f"p95 {sorted(latencies)[min(n - 1, round(0.95 * (n - 1)))]:.1f} ms; "
            f"per recall Python CPU {(time.process_time() - python_before) * 1000 / n:.1f} ms"
            + (f", Neo4j CPU {(process_cpu_seconds(pid) - neo4j_before) * 1000 / n:.1f} ms" if pid else "")
            + f"; {statements:.2f} statements (Bolt round trips) per recall"
        )
        varying = sorted(name for name, seen in texts.items() if len(seen) > 1)
        print("every named query ran with one Cypher text" if not varying else f"varying Cypher text: {varying}")
        print("| query | calls per recall | wall ms per call | Neo4j CPU ms per call | Neo4j CPU ms per recall |")
        print("|---|---|---|---|---|")
        for name, seconds in sorted(wall.items(), key=lambda item: -cpu[item[0]] - item[1]):
            per_call = calls[name]
            neo4j = f"{cpu[name] * 1000 / per_call:.1f} | {cpu[name] * 1000 / n:.1f}" if pid else "- | -"
            print(f"| {name} | {per_call / n:.2f} | {seconds * 1000 / per_call:.2f} | {neo4j} |")
        if not args.keep:
            perf.drop_graph(store, graph)
    return 0


def answer(result: RecallResult) -> dict[str, Any]:
    """What a caller sees of one recall: the ranked hits with their scores, and everything packed around them."""
    return {
        "hits": [[hit.id, round(hit.score, 9), hit.latest_slot, list(hit.repeats)] for hit in result.hits],
        "evidence": result.evidence,
        "episodes": [e.episode_id for e in result.episodes],
        "related": [r.id for r in result.related],
        "contradictions": [[list(c.subject), [side.id for side in c.sides]] for c in result.contradictions],
    }


def load_or_reuse(store: Store, facts: int, keep: str | None, spaces: int = perf.SPACES) -> perf.SyntheticGraph:
    """The generator's graph; with `keep`, under that run id, loaded only if its first space is empty."""
    if keep is None:
        return perf.generate_and_load(store, facts, 384, spaces=spaces)
    run_id = keep.encode().hex().ljust(32, "0")[:32]
    loaded = store.run_read_text(
        "MATCH (n:Semantic {space: $space}) RETURN count(n) > 0 AS loaded LIMIT 1", space=f"perf-{run_id[:8]}-s0"
    )
    original_uuid, original_load = perf.uuid.uuid4, perf._load
    perf.uuid.uuid4 = lambda: uuid.UUID(hex=run_id)
    if loaded and loaded[0]["loaded"]:
        perf._load = lambda *args, **kwargs: None
    try:
        return perf.generate_and_load(store, facts, 384, spaces=spaces)
    finally:
        perf.uuid.uuid4, perf._load = original_uuid, original_load


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
