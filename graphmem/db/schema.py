"""`graphmem schema install`: constraints and indexes from `cypher/schema/`, idempotent."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from neo4j.exceptions import ClientError

from graphmem.db.queries import load_statements
from graphmem.db.store import Store
from graphmem.errors import ConfigError
from graphmem.model import EMBEDDED_LABELS
from graphmem.model.nodes import declared_names


@dataclass
class SchemaReport:
    server_version: str
    dimensions: int
    vector_filters_in_index: bool
    statements: int = 0
    vector_indexes: dict[str, int] = field(default_factory=dict)
    # Each label's in-index filter properties, as the server reports them after install.
    vector_filters: dict[str, list[str]] = field(default_factory=dict)
    rebuilt: list[str] = field(default_factory=list)


def install_schema(store: Store, dimensions: int, quantized: bool = False) -> SchemaReport:
    """Create every constraint and index if missing (and the model's names: `schema/declare_names`), then wait
    until they are online.

    A database made before per-space identity is migrated: its global `id IS UNIQUE` constraints are dropped by
    name and the `(space, id)` ones created (`cypher/schema/drop_global_id_constraints.cypher`); idempotent.

    On servers with in-index vector filters, `quantized` (GRAPHMEM_VECTOR_QUANTIZATION) chooses quantized or
    full-precision vector indexes; an existing index of the other kind, or one that does not declare the filter
    properties `cypher/schema/vector_indexes` names (made by an older schema or another tool), is dropped and
    built again from the stored embeddings (listed in `rebuilt`). `vector_filters_in_index` is true when the
    server reports every index with its declared filters. Raises `ConfigError` when an existing vector index
    has another dimension than the embedder's (the data was embedded with another model).
    """
    info = store.verify()
    report = SchemaReport(info.version, dimensions, vector_filters_in_index=False)
    vector_file = "schema/vector_indexes" if info.supports_search_clause else "schema/vector_indexes_legacy"
    for name in (
        "schema/drop_global_id_constraints",
        "schema/constraints",
        "schema/range_indexes",
        "schema/fulltext_indexes",
    ):
        for statement in load_statements(name):
            store.run_write_text(statement)
            report.statements += 1
    for statement in load_statements("schema/declare_names"):
        store.run_write_text(statement, **declared_names())
        report.statements += 1
    _check_vector_dimensions(store, dimensions)
    declared = declared_vector_filters() if info.supports_search_clause else {}
    if info.supports_search_clause:
        report.rebuilt = _drop_stale_vector_indexes(store, quantized, declared)
    for statement in load_statements(vector_file):
        store.run_write_text(statement, dimensions=dimensions, quantized=quantized)
        report.statements += 1
    await_indexes(store, REBUILD_WAIT_S if report.rebuilt else AWAIT_S)
    indexes = [row for row in store.read("schema/show_vector_indexes") if _is_own(row)]
    report.vector_indexes = {row["label"]: row["dimensions"] for row in indexes}
    report.vector_filters = {row["label"]: list(row["filters"]) for row in indexes}
    report.vector_filters_in_index = bool(declared) and all(
        report.vector_filters.get(label) == filters for label, filters in declared.items()
    )
    missing = set(EMBEDDED_LABELS) - set(report.vector_indexes)
    if missing:
        raise ConfigError(f"vector indexes missing after install for: {', '.join(sorted(missing))}")
    return report


AWAIT_S = 300
# Rebuilding a vector index over a million facts took over five minutes on a 2-core machine.
REBUILD_WAIT_S = 3600


def await_indexes(store: Store, seconds: int = AWAIT_S) -> None:
    """Wait until every index is online; `ConfigError` naming those still populating after `seconds`."""
    try:
        store.read("schema/await_indexes", seconds=seconds)
    except ClientError as exc:
        waiting = ", ".join(
            f"{row['name']} {row['state'].lower()} {row['populationPercent']:.0f} %"
            for row in store.read("schema/populating_indexes")
        )
        if not waiting:
            raise
        raise ConfigError(
            f"indexes not online after {seconds} s ({waiting}); they keep building in Neo4j: "
            "run `graphmem schema install` again to wait for them"
        ) from exc


# `FOR (n:Label) ON n.embedding WITH [n.a, n.b]` in `cypher/schema/vector_indexes.cypher`.
_DECLARED_FILTERS = re.compile(r"FOR \(n:(?P<label>\w+)\) ON n\.embedding\s+WITH \[(?P<properties>[^\]]*)\]")


def declared_vector_filters() -> dict[str, list[str]]:
    """Each label's in-index filter properties as `cypher/schema/vector_indexes` declares them (its one source)."""
    declared = {}
    for statement in load_statements("schema/vector_indexes"):
        match = _DECLARED_FILTERS.search(statement)
        if match:
            declared[match["label"]] = re.findall(r"n\.(\w+)", match["properties"])
    return declared


def _is_own(row: dict) -> bool:
    """One of graphmem's vector indexes (`<label>_embedding` on an embedded label), not an analyst's."""
    return row["label"] in EMBEDDED_LABELS and row["name"] == f"{row['label'].lower()}_embedding"


def _drop_stale_vector_indexes(store: Store, quantized: bool, declared: dict[str, list[str]]) -> list[str]:
    """Drop graphmem's vector indexes of the other quantization or with other filter properties; their names."""
    dropped = []
    for row in store.read("schema/show_vector_indexes"):
        if not _is_own(row):
            continue
        other_quantization = row["quantization"] is not None and (row["quantization"] != "NONE") != quantized
        other_filters = list(row["filters"]) != declared.get(row["label"], [])
        if other_quantization or other_filters:
            store.write("schema/drop_index", index=row["name"])
            dropped.append(row["name"])
    return dropped


def _check_vector_dimensions(store: Store, dimensions: int) -> None:
    for row in store.read("schema/show_vector_indexes"):
        if row["label"] in EMBEDDED_LABELS and row["dimensions"] not in (None, dimensions):
            raise ConfigError(
                f"vector index {row['name']} has {row['dimensions']} dimensions but the embedder gives "
                f"{dimensions}: use the embedder the data was written with (GRAPHMEM_EMBEDDER) or a fresh database"
            )
