"""Plain-text tables of a benchmark result: one row per variant, then the headline metric by type."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Headline columns per dataset (a metric missing from a result shows as '-').
COLUMNS: dict[str, tuple[str, ...]] = {
    "longmemeval": (
        "recall_any@1",
        "recall_any@5",
        "recall_any@10",
        "all@10",
        "ndcg@10",
        "mrr",
        "turn_recall@5",
        "turn_recall@10",
        "evidence_tokens@5",
    ),
    "locomo": (
        "recall@5",
        "recall@10",
        "session_recall@5",
        "session_recall@10",
        "ndcg@10",
        "mrr",
        "evidence_tokens@5",
    ),
    "hotpotqa": ("recall@2", "recall@5", "recall@10", "all@2", "all@5", "all@10", "mrr", "evidence_tokens@5"),
    "versioned": (
        "gold@1",
        "recall@5",
        "recall@10",
        "recall@20",
        "all@10",
        "stale_above_gold",
        "future_leak",
        "evidence_tokens@10",
    ),
}
COLUMNS["musique"] = COLUMNS["hotpotqa"]
# The metric shown per question type.
HEADLINE = {
    "longmemeval": "recall_any@5",
    "locomo": "recall@5",
    "hotpotqa": "recall@5",
    "musique": "recall@5",
}
HEADLINE["versioned"] = "recall@10"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) <= 1 else f"{value:.0f}"
    return str(value)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(h)), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    line = "| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths, strict=True)) + " |"
    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    body = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    return "\n".join([line, rule, *body])


def variant_table(dataset: str, variants: dict[str, dict[str, Any]]) -> str:
    columns = COLUMNS.get(dataset, ("recall@5", "recall@10", "mrr"))
    header = ["variant", *columns, "n", "query_ms_mean"]
    rows = [
        [name, *(_cell(r.get(c)) for c in columns), str(r.get("n", 0)), _cell(r.get("query_ms_mean"))]
        for name, r in variants.items()
    ]
    return markdown_table(header, rows)


def by_type_table(dataset: str, variants: dict[str, dict[str, Any]]) -> str:
    metric = HEADLINE.get(dataset, "recall@5")
    types = sorted({t for r in variants.values() for t in r.get("by_type", {})})
    header = [f"type ({metric})", *variants, "n"]
    rows = []
    for kind in types:
        cells = [_cell(r.get("by_type", {}).get(kind, {}).get(metric)) for r in variants.values()]
        n = next((r["by_type"][kind].get("n", 0) for r in variants.values() if kind in r.get("by_type", {})), 0)
        rows.append([kind, *cells, str(n)])
    return markdown_table(header, rows)


# The reasoning step's columns: memory tokens of the guidance, the evidence it compressed, and whether the
# gold evidence is among the items the guidance drew on.
GUIDANCE_COLUMNS = (
    "memory_tokens",
    "evidence_tokens_reasoned",
    "guidance_recall_any",
    "guidance_recall",
    "guidance_all",
)


def guidance_table(variants: dict[str, dict[str, Any]]) -> str:
    header = ["variant", *GUIDANCE_COLUMNS, "n"]
    rows = [
        [name, *(_cell(r.get(c)) for c in GUIDANCE_COLUMNS), str(r.get("n", 0))]
        for name, r in variants.items()
        if "memory_tokens" in r
    ]
    return markdown_table(header, rows)


def render(result: dict[str, Any]) -> str:
    dataset = result["dataset"]
    parts = [variant_table(dataset, result["variants"])]
    if any("memory_tokens" in r for r in result["variants"].values()):
        parts.append(guidance_table(result["variants"]))
    if any(r.get("by_type") for r in result["variants"].values()):
        parts.append(by_type_table(dataset, result["variants"]))
    return "\n\n".join(parts)
