"""`graphmem bench perf`: latency and throughput at scale, side by side with the references.

Per scale it bulk-loads a synthetic graph with `UNWIND` (clustered unit vectors of the embedder's dimension,
Zipf-distributed tags, subgoals with procedures, supersession chains, the facts spread over `--spaces`
spaces, ten by default), then times `recall`
(hybrid, with and without `as_of`), `tag_vote`, `route_subgoal` and `provenance` through the Python API and
over HTTP GraphQL (`http_*`, `graphmem.bench.perf_http`) with 1 and C concurrent clients. Query vectors are
precomputed, so latencies exclude query embedding; the real embedder's cost per query is timed on its own. In
the same run, on the same vectors, it times the references — exact numpy top-k in memory and a full-scan
Cypher computing `vector.similarity.cosine` over every fact of the space — and measures the vector leg's
recall@10 against the exact top-k. Each query searches one space; `--spaces 1` puts all of a scale's facts
in one space (one organisation's memory), `--spaces 10` ten of a tenth each.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.bench.perf_http import http_operations, served_graphql
from graphmem.bench.quality.machine import machine_info
from graphmem.bench.settle import wait_until_quiet
from graphmem.config import Settings, get_settings
from graphmem.db import Store, install_schema
from graphmem.db.schema import await_indexes
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from graphmem.read.asof import AsOf
from graphmem.read.legs import vector_leg
from graphmem.timeutil import FAR_FUTURE

SPACES = 10  # the default spread of each scale's facts
MIN_FACTS_PER_SPACE = 20
TAGS_PER_FACT = 3
FACTS_PER_UNIT = 10
UNITS_PER_EPISODE = 10
FACTS_PER_SUBGOAL = 200
PROCEDURES_PER_SUBGOAL = 3
SUPERSEDED_SHARE = 0.05
LOAD_BATCH = 2000
FACT_CHUNK = 50_000  # fact rows built and loaded at a time (one space of 1M facts in bounded memory)
WORDS_PER_CLUSTER = 40
# Spread of the synthetic vectors, per dimension, around what they belong to. Sentence embeddings of one topic
# sit at cosine ~0.7 to its centre, not scattered over the sphere: a spread of s per dimension puts a unit
# vector at cosine 1 / sqrt(1 + 384 s²) to its centre. Facts and evidence units: 0.7 to their cluster's
# centre; subgoals 0.8; a procedure 0.9 to its subgoal; a probe 0.9 to the fact it paraphrases. (The first
# generator used 0.35, i.e. cosine 0.14: near-uniform random vectors, whose 2nd to 10th exact neighbours are
# noise no index can find, and ANN recall@10 fell to 0.46 at 1M facts.)
CLUSTER_SPREAD = 0.052
SUBGOAL_SPREAD = 0.038
NEAR_SPREAD = 0.025
START = datetime(2024, 1, 1, tzinfo=UTC)


class PrecomputedEmbedder:
    """Known texts map to their precomputed vectors (so timings exclude embedding); others are hashed."""

    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self.name = f"precomputed:{dimensions}"
        self._known: dict[str, list[float]] = {}
        self._fallback = HashingEmbedder(dimensions)

    def remember(self, text: str, vector: Sequence[float]) -> None:
        self._known[text] = list(vector)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._known.get(t) or self._fallback.embed([t])[0] for t in texts]

    def count_tokens(self, text: str) -> int:
        return self._fallback.count_tokens(text)


@dataclass
class SyntheticGraph:
    """What was loaded for one scale, kept in memory for the exact references."""

    run_id: str
    spaces: list[str]
    dimensions: int
    fact_ids: dict[str, list[str]] = field(default_factory=dict)
    fact_vectors: dict[str, np.ndarray] = field(default_factory=dict)
    fact_active: dict[str, np.ndarray] = field(default_factory=dict)
    fact_words: dict[str, list[list[str]]] = field(default_factory=dict)
    subgoal_texts: dict[str, list[str]] = field(default_factory=dict)
    tag_names: list[str] = field(default_factory=list)
    load_seconds: float = 0.0
    nodes: int = 0


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (rows / norms).astype(np.float32)


def _clustered(centroids: np.ndarray, assignment: np.ndarray, noise: np.ndarray, spread: float) -> np.ndarray:
    """`_unit(centroids[assignment] + spread * noise)`, the same values, computed in place a chunk at a time so
    a million rows need no full-size temporaries."""
    noise *= spread
    out = np.empty(noise.shape, dtype=np.float32)
    for lo in range(0, len(noise), FACT_CHUNK):
        hi = lo + FACT_CHUNK
        out[lo:hi] = _unit(centroids[assignment[lo:hi]] + noise[lo:hi])
    return out


def facts_per_space(n_facts: int, spaces: int) -> list[int]:
    """`n_facts` split over `spaces` as evenly as integers allow (the first spaces take the remainder)."""
    if spaces < 1:
        raise InvalidInput("--spaces", "at least 1 space")
    base, extra = divmod(n_facts, spaces)
    return [base + (1 if i < extra else 0) for i in range(spaces)]


def generate_and_load(
    store: Store, n_facts: int, dimensions: int, seed: int = 7, spaces: int = SPACES
) -> SyntheticGraph:
    """Create the synthetic graph for one scale in `spaces` fresh spaces; returns what the references need."""
    rng = np.random.default_rng(seed + n_facts)
    run_id = uuid.uuid4().hex[:8]
    graph = SyntheticGraph(run_id, [f"perf-{run_id}-s{i}" for i in range(spaces)], dimensions)
    sizes = facts_per_space(n_facts, spaces)
    hasher = HashingEmbedder(dimensions)
    clusters = max(8, n_facts // 500)
    centroids = _unit(rng.standard_normal((clusters, dimensions)))
    vocabulary = [[f"w{c}x{j}" for j in range(WORDS_PER_CLUSTER)] for c in range(clusters)]
    # each space its own tag vocabulary, one tag per 20 of its facts: one big space has hubs ten spaces lack
    n_tags = max(50, sizes[0] // 20)
    graph.tag_names = [f"tag{t}" for t in range(n_tags)]
    tag_vectors = hasher.embed(graph.tag_names)
    now = datetime.now(UTC)
    started = time.perf_counter()
    for space, per_space in zip(graph.spaces, sizes, strict=True):
        tag_ids = [f"{space}-t{t}" for t in range(n_tags)]
        _load(store, "bench/perf_load_tags", [
            {"id": tid, "space": space, "name": name, "embedding": vec}
            for tid, name, vec in zip(tag_ids, graph.tag_names, tag_vectors, strict=True)
        ], now=now)  # fmt: skip
        assignment = rng.integers(0, clusters, per_space)
        vectors = _clustered(centroids, assignment, rng.standard_normal((per_space, dimensions)), CLUSTER_SPREAD)
        words = [list(rng.choice(vocabulary[c], 6, replace=False)) for c in assignment]
        units = max(1, per_space // FACTS_PER_UNIT)
        episodes = max(1, units // UNITS_PER_EPISODE)
        unit_vectors = _unit(centroids[assignment[:units]] + CLUSTER_SPREAD * rng.standard_normal((units, dimensions)))
        episode_rows = []
        for e in range(episodes):
            members = range(e * UNITS_PER_EPISODE, min(units, (e + 1) * UNITS_PER_EPISODE))
            episode_rows.append({
                "id": f"{space}-e{e}", "space": space, "goal": f"episode {e} of {space}",
                "units": [
                    {"id": f"{space}-u{u}", "seq": u, "text": " ".join(words[u]), "embedding": unit_vectors[u].tolist()}
                    for u in members
                ],
            })  # fmt: skip
        _load(store, "bench/perf_load_episodes", episode_rows, batch=max(1, LOAD_BATCH // UNITS_PER_EPISODE),
              now=now, start=START)  # fmt: skip
        superseded = rng.random(per_space) < SUPERSEDED_SHARE
        superseded[-1] = False  # the last fact has no successor to supersede it
        ranks = np.arange(1, n_tags + 1)
        zipf = (1.0 / ranks) / np.sum(1.0 / ranks)
        fact_ids: list[str] = []
        supersessions: list[dict[str, Any]] = []
        fact_rows: list[dict[str, Any]] = []
        for i in range(per_space):
            born = START + timedelta(days=int(i % 700))
            row = {
                "id": f"{space}-f{i}", "space": space, "text": f"fact {i} " + " ".join(words[i]),
                "embedding": vectors[i].tolist(), "author": f"author{i % 17}", "valid_from": born,
                "valid_to": FAR_FUTURE, "status": "active",
                "evidence_id": f"{space}-u{min(units - 1, i // FACTS_PER_UNIT)}",
                "tag_ids": [tag_ids[t] for t in set(rng.choice(n_tags, TAGS_PER_FACT, p=zipf).tolist())],
            }  # fmt: skip
            if superseded[i]:
                successor_born = born + timedelta(days=30)
                row["valid_to"], row["status"] = successor_born, "superseded"
                supersessions.append(
                    {"space": space, "new_id": f"{space}-f{i + 1}", "old_id": row["id"], "at": successor_born}
                )
            fact_rows.append(row)
            if len(fact_rows) == FACT_CHUNK or i == per_space - 1:
                # rows go to Neo4j a chunk at a time: a million rows of Python floats would not fit in memory
                _load(store, "bench/perf_load_facts", fact_rows)
                fact_ids.extend(r["id"] for r in fact_rows)
                fact_rows = []
        _load(store, "bench/perf_load_supersessions", supersessions)
        n_subgoals = max(2, per_space // FACTS_PER_SUBGOAL)
        sub_vectors = _unit(centroids[rng.integers(0, clusters, n_subgoals)] + SUBGOAL_SPREAD * rng.standard_normal(
            (n_subgoals, dimensions)))  # fmt: skip
        subgoal_rows = []
        texts = []
        for s in range(n_subgoals):
            text = f"subgoal {s} " + " ".join(rng.choice(vocabulary[s % clusters], 3, replace=False))
            texts.append(text)
            subgoal_rows.append({
                "id": f"{space}-g{s}", "space": space, "text": text, "embedding": sub_vectors[s].tolist(),
                "procedures": [
                    {"id": f"{space}-g{s}-p{p}", "text": f"procedure {p} for {text}",
                     "embedding": _unit(sub_vectors[s:s + 1] + NEAR_SPREAD * rng.standard_normal((1, dimensions)))[0]
                     .tolist(),
                     "ret": float(rng.random()), "uses": int(rng.integers(0, 20))}
                    for p in range(PROCEDURES_PER_SUBGOAL)
                ],
            })  # fmt: skip
        _load(store, "bench/perf_load_procedures", subgoal_rows, batch=500, now=now, start=START)
        graph.fact_ids[space] = fact_ids
        graph.fact_vectors[space] = vectors
        graph.fact_active[space] = ~superseded
        graph.fact_words[space] = words
        graph.subgoal_texts[space] = texts
        graph.nodes += per_space + units + episodes + n_tags + n_subgoals * (1 + PROCEDURES_PER_SUBGOAL)
    await_indexes(store)
    graph.load_seconds = time.perf_counter() - started
    return graph


def _load(store: Store, name: str, rows: list[dict[str, Any]], batch: int = LOAD_BATCH, **params: Any) -> None:
    params.setdefault("far", FAR_FUTURE)
    for start in range(0, len(rows), batch):
        store.write(name, rows=rows[start : start + batch], **params)


def drop_graph(store: Store, graph: SyntheticGraph) -> None:
    for space in graph.spaces:
        while store.write("bench/drop_space", space=space, batch=10000)[0]["deleted"]:
            pass


@dataclass
class Timing:
    samples_ms: list[float]
    wall_s: float

    def summary(self) -> dict[str, float]:
        ordered = sorted(self.samples_ms)

        def pct(p: float) -> float:
            return round(ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))], 2)

        return {
            "p50_ms": round(statistics.median(ordered), 2),
            "p95_ms": pct(0.95),
            "p99_ms": pct(0.99),
            "qps": round(len(ordered) / self.wall_s, 1) if self.wall_s else 0.0,
            "n": len(ordered),
        }


def time_calls(calls: Sequence[Callable[[], object]], concurrency: int) -> Timing:
    def timed(call: Callable[[], object]) -> float:
        start = time.perf_counter()
        call()
        return (time.perf_counter() - start) * 1000

    for call in calls[: min(5, len(calls))]:  # warm caches and the query planner
        call()
    started = time.perf_counter()
    if concurrency <= 1:
        samples = [timed(c) for c in calls]
    else:
        with ThreadPoolExecutor(concurrency) as pool:
            samples = list(pool.map(timed, calls))
    return Timing(samples, time.perf_counter() - started)


@dataclass(frozen=True)
class Probe:
    space: str
    text: str
    vector: list[float]
    subgoal: str
    fact_id: str


def make_probes(graph: SyntheticGraph, embedder: PrecomputedEmbedder, count: int, seed: int = 11) -> list[Probe]:
    rng = np.random.default_rng(seed)
    probes = []
    for q in range(count):
        space = graph.spaces[q % len(graph.spaces)]
        i = int(rng.integers(0, len(graph.fact_ids[space])))
        vec = graph.fact_vectors[space][i] + NEAR_SPREAD * rng.standard_normal(graph.dimensions).astype(np.float32)
        vector = (vec / np.linalg.norm(vec)).tolist()
        text = " ".join(rng.choice(graph.fact_words[space][i], 3, replace=False)) + f" q{q}"
        embedder.remember(text, vector)
        subgoal = graph.subgoal_texts[space][int(rng.integers(0, len(graph.subgoal_texts[space])))]
        embedder.remember(subgoal, vector)
        probes.append(Probe(space, text, vector, subgoal, graph.fact_ids[space][i]))
    return probes


def exact_top_k(graph: SyntheticGraph, probe: Probe, k: int) -> list[str]:
    matrix = graph.fact_vectors[probe.space]
    scores = matrix @ np.asarray(probe.vector, dtype=np.float32)
    scores[~graph.fact_active[probe.space]] = -2.0
    top = np.argpartition(-scores, k)[:k]
    top = top[np.argsort(-scores[top])]
    return [graph.fact_ids[probe.space][i] for i in top]


def run_scale(
    store: Store,
    settings: Settings,
    n_facts: int,
    queries: int,
    concurrency: int,
    scan_queries: int,
    http: bool = True,
    settle_max: float = 0.0,
    spaces: int = SPACES,
) -> dict[str, Any]:
    embedder = PrecomputedEmbedder(384)
    print(f"[perf] loading {n_facts:,} facts in {spaces} space(s) ...", file=sys.stderr, flush=True)
    graph = generate_and_load(store, n_facts, embedder.dimensions, spaces=spaces)
    memory = MemoryGraph(store, embedder, settings)
    probes = make_probes(graph, embedder, queries)
    past = (START + timedelta(days=200)).isoformat()
    operations: dict[str, Callable[[Probe], object]] = {
        "recall": lambda p: memory.recall(p.text, p.space, k=10),
        "recall_as_of": lambda p: memory.recall(p.text, p.space, k=10, as_of=past),
        "tag_vote": lambda p: memory.tag_vote(p.text, p.space, k=10),
        "route_subgoal": lambda p: memory.route_subgoal(p.subgoal, p.space, k=5),
        "provenance": lambda p: memory.provenance(p.fact_id, p.space),
        "vector_leg": lambda p: vector_leg(store, p.space, p.vector, AsOf.resolve(None, None), ("semantic",), 10),
    }
    result: dict[str, Any] = {
        "nodes": graph.nodes,
        "facts": n_facts,
        "spaces": spaces,
        "facts_per_space": facts_per_space(n_facts, spaces),
        "space_names": graph.spaces,
        "load_seconds": round(graph.load_seconds, 1),
    }
    settled = wait_until_quiet(store, settle_max)
    result.update(settled.as_dict())
    print(f"[perf] {n_facts:,} settle: {settled.as_dict()}", file=sys.stderr, flush=True)
    ops: dict[str, Any] = {}

    def time_operations(named: dict[str, Callable[[Probe], object]]) -> None:
        for name, op in named.items():
            calls = [partial(op, p) for p in probes]
            ops[name] = {f"c{c}": time_calls(calls, c).summary() for c in sorted({1, concurrency})}
            print(f"[perf] {n_facts:,} {name}: {ops[name]}", file=sys.stderr, flush=True)

    # One untimed pass of every operation over every probe first: right after a bulk load Neo4j is still
    # faulting pages in and merging index segments, and whichever operation ran first paid for it (at 1M
    # facts Python recall timed slower than the same recall over HTTP, which ran later).
    started = time.perf_counter()
    for op in operations.values():
        for p in probes:
            op(p)
    result["warm_up_seconds"] = round(time.perf_counter() - started, 1)
    time_operations(operations)
    if http:
        with served_graphql(store, embedder, settings) as client:
            time_operations(http_operations(client, past))
    references: dict[str, Any] = {}
    numpy_timing = time_calls([partial(exact_top_k, graph, p, 10) for p in probes], 1).summary()
    references["numpy_exact_topk"] = numpy_timing
    scan = [
        partial(store.read, "bench/perf_full_scan", space=p.space, vector=p.vector, k=10) for p in probes[:scan_queries]
    ]
    references["full_scan_cypher"] = time_calls(scan, 1).summary()
    ours = ops["vector_leg"]["c1"]["p50_ms"]
    for ref in references.values():
        ref["ratio_to_ours_p50"] = round(ref["p50_ms"] / ours, 2) if ours else None
    hits = []
    for p in probes:
        ann = [r.id for r in vector_leg(store, p.space, p.vector, AsOf.resolve(None, None), ("semantic",), 10).rows]
        exact = exact_top_k(graph, p, 10)
        hits.append(len(set(ann) & set(exact)) / 10)
    result["ann_recall@10"] = round(float(np.mean(hits)), 4)
    result["operations"] = ops
    result["references"] = references
    result["graph"] = graph
    return result


def query_embedding_ms(settings: Settings, samples: int = 50) -> dict[str, Any] | None:
    """The real embedder's cost for one query, timed apart from retrieval."""
    try:
        from graphmem.embed import make_embedder

        embedder = make_embedder(settings)
    except Exception:  # no model available: report nothing rather than a wrong number
        return None
    texts = [f"what did the Berlin office decide about budget {i}?" for i in range(samples)]
    embedder.embed(texts[:2])
    timing = time_calls([partial(embedder.embed, [t]) for t in texts], 1).summary()
    return {"embedder": embedder.name, **timing}


def _server_memory(store: Store) -> dict[str, str]:
    try:
        rows = store.run_read_text(
            "SHOW SETTINGS YIELD name, value WHERE name IN "
            "['server.memory.heap.max_size', 'server.memory.pagecache.size'] RETURN name, value"
        )
    except Exception:
        return {}
    return {r["name"]: r["value"] for r in rows}


def register_perf(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("perf", help="latency / throughput at scale, side by side with references")
    parser.add_argument("--nodes", default="10000", help="comma-separated fact counts, e.g. 10000,100000,1000000")
    parser.add_argument(
        "--spaces",
        type=int,
        default=SPACES,
        help="spaces each scale's facts are spread over (1: all in one space); each query searches one",
    )
    parser.add_argument("--queries", type=int, default=200, help="queries per operation and concurrency")
    parser.add_argument("--concurrency", type=int, default=16, help="concurrent clients (also runs 1)")
    parser.add_argument("--scan-queries", type=int, default=20, help="queries for the slow full-scan reference")
    parser.add_argument(
        "--settle-max",
        type=float,
        default=900,
        help="seconds to wait at most, after each load, for Neo4j to finish its index merges (0: no wait)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the synthetic spaces after the run")
    parser.add_argument("--no-http", action="store_true", help="time the Python API only, not GraphQL over HTTP")
    parser.add_argument("--out", type=Path, help="write JSON here")
    parser.set_defaults(handler=run_perf_bench)


def run_perf_bench(args: argparse.Namespace) -> int:
    try:
        scales = [int(n) for n in str(args.nodes).split(",") if n.strip()]
    except ValueError:
        raise InvalidInput("--nodes", "expected comma-separated integers, e.g. 10000,100000") from None
    if args.spaces < 1:
        raise InvalidInput("--spaces", "at least 1 space")
    if not scales or min(scales) < args.spaces * MIN_FACTS_PER_SPACE:
        raise InvalidInput("--nodes", f"each scale needs at least {args.spaces * MIN_FACTS_PER_SPACE} facts")
    if args.queries < 5 or args.concurrency < 1:
        raise InvalidInput("--queries", "at least 5 queries and 1 client")
    if args.settle_max < 0:
        raise InvalidInput("--settle-max", "seconds, 0 or more")
    settings = get_settings()
    command = "graphmem bench perf " + " ".join(sys.argv[3:])
    output: dict[str, Any] = {
        "command": command,
        "started_at": datetime.now(UTC).isoformat(),
        "spaces": args.spaces,
        "scales": {},
    }
    with Store.from_settings(settings) as store:
        schema = install_schema(store, 384, settings.vector_quantization)
        output["machine"] = {**machine_info(store.server.version), "neo4j_memory": _server_memory(store)}
        output["vector_quantization"] = settings.vector_quantization
        if schema.rebuilt:
            print(f"vector indexes rebuilt for quantization={settings.vector_quantization}: {schema.rebuilt}")
        # before the scales: after them Neo4j is still deleting the dropped spaces and competes for the CPU
        output["query_embedding"] = query_embedding_ms(settings)
        for n in scales:
            result = run_scale(
                store,
                settings,
                n,
                args.queries,
                args.concurrency,
                args.scan_queries,
                http=not args.no_http,
                settle_max=args.settle_max,
                spaces=args.spaces,
            )
            graph = result.pop("graph")
            if not args.keep:
                drop_graph(store, graph)
            output["scales"][str(n)] = result
    output["service_max_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(render(output))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(output, indent=2, default=str) + "\n", encoding="utf-8")
    return 0


def _settle_cell(scale: dict[str, Any]) -> str:
    """Seconds waited for a quiet server; marked when timing started before it went quiet."""
    return f"{scale['settle_seconds']}" + ("" if scale["settled"] else " (not quiet)")


def render(output: dict[str, Any]) -> str:
    lines = [f"$ {output['command']}", f"machine: {json.dumps(output['machine'])}", ""]
    lines.append("| facts | spaces | operation | clients | p50 ms | p95 ms | p99 ms | qps |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for n, scale in output["scales"].items():
        spread = scale["spaces"]
        for op, by_clients in scale["operations"].items():
            for clients, t in by_clients.items():
                cells = [f"{int(n):,}", spread, op, clients[1:], t["p50_ms"], t["p95_ms"], t["p99_ms"], t["qps"]]
                lines.append("| " + " | ".join(str(c) for c in cells) + " |")
        for ref, t in scale["references"].items():
            lines.append(
                f"| {int(n):,} | {spread} | ref: {ref} | 1 | {t['p50_ms']} | {t['p95_ms']} | {t['p99_ms']} "
                f"| {t['qps']} |"
            )
    lines.append("")
    lines.append(
        "| facts | spaces | nodes | load s | settle s | warm-up s | ANN recall@10 | vector leg p50 ms "
        "| numpy exact / ours | full scan / ours |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for n, scale in output["scales"].items():
        refs = scale["references"]
        lines.append(
            f"| {int(n):,} | {scale['spaces']} | {scale['nodes']:,} | {scale['load_seconds']} | "
            f"{_settle_cell(scale)} | {scale['warm_up_seconds']} | "
            f"{scale['ann_recall@10']} | "
            f"{scale['operations']['vector_leg']['c1']['p50_ms']} | {refs['numpy_exact_topk']['ratio_to_ours_p50']} | "
            f"{refs['full_scan_cypher']['ratio_to_ours_p50']} |"
        )
    if output.get("query_embedding"):
        lines.append(f"\nquery embedding ({output['query_embedding']['embedder']}): "
                     f"p50 {output['query_embedding']['p50_ms']} ms")  # fmt: skip
    lines.append(f"service max RSS: {output['service_max_rss_mib']} MiB")
    return "\n".join(lines)
