"""Process-wide memory metrics for `/metrics` (Prometheus text format), fed by the write, read and time paths.

The names are the ones operators chart (see the README): what compiling an episode costs and yields, how
many tokens of memory a recall returns, how often recalls find facts and procedures, and how often
consolidation retires or merges what it looks at. Latency of each GraphQL root is a histogram.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

LATENCY_BUCKETS_MS = (5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)
COUNT_BUCKETS = (0, 1, 2, 5, 10, 20, 50, 100, 250)
TOKEN_BUCKETS = (0, 50, 100, 250, 500, 1000, 2000, 5000, 10000)


@dataclass
class Histogram:
    """A Prometheus histogram: cumulative buckets, sum and count, optionally per label value."""

    name: str
    help: str
    buckets: Sequence[float]
    label: str | None = None
    _series: dict[str, list[float]] = field(default_factory=dict)  # label value -> [bucket counts..., sum, count]

    def observe(self, value: float, label_value: str = "") -> None:
        series = self._series.setdefault(label_value, [0.0] * (len(self.buckets) + 2))
        for i, bound in enumerate(self.buckets):
            if value <= bound:
                series[i] += 1
        series[-2] += value
        series[-1] += 1

    def render(self) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} histogram"
        for label_value, series in sorted(self._series.items()):
            base = f'{self.label}="{label_value}",' if self.label else ""
            for bound, count in zip(self.buckets, series, strict=False):
                yield f'{self.name}_bucket{{{base}le="{bound}"}} {count:g}'
            yield f'{self.name}_bucket{{{base}le="+Inf"}} {series[-1]:g}'
            suffix = f"{{{base.rstrip(',')}}}" if base else ""
            yield f"{self.name}_sum{suffix} {series[-2]:g}"
            yield f"{self.name}_count{suffix} {series[-1]:g}"


class MemoryMetrics:
    """Thread-safe; one instance per process (`MEMORY_METRICS`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.root_latency = Histogram(
            "graphmem_graphql_root_latency_ms", "GraphQL request latency by root field", LATENCY_BUCKETS_MS, "root"
        )
        self.compile_tokens = Histogram(
            "memory_compile_tokens_per_episode", "LLM tokens spent compiling one episode", TOKEN_BUCKETS
        )
        self.compile_latency = Histogram(
            "memory_compile_latency_ms", "wall time to compile and store one episode", LATENCY_BUCKETS_MS
        )
        self.semantic_created = Histogram(
            "semantic_nodes_created_per_episode", "Semantic facts created per episode", COUNT_BUCKETS
        )
        self.procedural_created = Histogram(
            "procedural_nodes_created_per_episode", "Procedural insights created per episode", COUNT_BUCKETS
        )
        self.retrieved_tokens = Histogram(
            "retrieved_memory_tokens", "tokens of packed evidence one recall returned", TOKEN_BUCKETS
        )
        self._counts: defaultdict[str, float] = defaultdict(float)

    def observe_root(self, root: str, latency_ms: float) -> None:
        with self._lock:
            self.root_latency.observe(latency_ms, root)

    def observe_episodes(self, episodes: int, seconds: float, llm_tokens: int, semantic: int, procedural: int) -> None:
        """One ingest call of `episodes` episodes; per-episode values are the call's averages."""
        if episodes <= 0:
            return
        with self._lock:
            for _ in range(episodes):
                self.compile_tokens.observe(llm_tokens / episodes)
                self.compile_latency.observe(seconds * 1000 / episodes)
                self.semantic_created.observe(semantic / episodes)
                self.procedural_created.observe(procedural / episodes)

    def observe_recall(self, evidence_tokens: int, semantic_hits: int, procedural_hits: int) -> None:
        with self._lock:
            self.retrieved_tokens.observe(evidence_tokens)
            self._counts["recalls"] += 1
            self._counts["recalls_with_semantic"] += semantic_hits > 0
            self._counts["recalls_with_procedural"] += procedural_hits > 0

    def observe_routing(self, procedural_hits: int) -> None:
        with self._lock:
            self._counts["routings"] += 1
            self._counts["routings_with_procedural"] += procedural_hits > 0

    def observe_consolidation(self, pairs_seen: int, superseded: int, merged: int) -> None:
        with self._lock:
            self._counts["consolidation_pairs"] += pairs_seen
            self._counts["consolidation_superseded"] += superseded
            self._counts["consolidation_merged"] += merged

    def _rate(self, part: str, whole: str | Sequence[str]) -> float:
        total = sum(self._counts[w] for w in ([whole] if isinstance(whole, str) else whole))
        return self._counts[part] / total if total else 0.0

    def render(self) -> str:
        with self._lock:
            lines: list[str] = []
            for histogram in (
                self.root_latency,
                self.compile_tokens,
                self.compile_latency,
                self.semantic_created,
                self.procedural_created,
                self.retrieved_tokens,
            ):
                lines.extend(histogram.render())
            procedural_found = self._counts["recalls_with_procedural"] + self._counts["routings_with_procedural"]
            gauges = {
                "semantic_hit_rate": ("share of recalls that returned a fact", self._rate(
                    "recalls_with_semantic", "recalls")),
                "procedural_hit_rate": ("share of recalls and routings that returned a procedure",
                                        procedural_found / ((self._counts["recalls"] + self._counts["routings"]) or 1)),
                "soft_deactivation_rate": ("share of consolidation pairs that retired a version", self._rate(
                    "consolidation_superseded", "consolidation_pairs")),
                "merge_accept_rate": ("share of consolidation pairs merged as restatements", self._rate(
                    "consolidation_merged", "consolidation_pairs")),
            }  # fmt: skip
            for name, (text, value) in gauges.items():
                lines += [f"# HELP {name} {text}", f"# TYPE {name} gauge", f"{name} {value:.6g}"]
        return "\n".join(lines) + "\n"


MEMORY_METRICS = MemoryMetrics()
