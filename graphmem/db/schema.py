"""`graphmem schema install`: constraints and indexes from `cypher/schema/`, idempotent."""

from __future__ import annotations

from dataclasses import dataclass, field

from graphmem.db.queries import load_statements
from graphmem.db.store import Store
from graphmem.errors import ConfigError
from graphmem.model import EMBEDDED_LABELS


@dataclass
class SchemaReport:
    server_version: str
    dimensions: int
    vector_filters_in_index: bool
    statements: int = 0
    vector_indexes: dict[str, int] = field(default_factory=dict)


def install_schema(store: Store, dimensions: int) -> SchemaReport:
    """Create every constraint and index if missing, then wait until they are online.

    Raises `ConfigError` when an existing vector index has another dimension than the embedder's
    (the data was embedded with another model).
    """
    info = store.verify()
    report = SchemaReport(info.version, dimensions, info.supports_search_clause)
    vector_file = "schema/vector_indexes" if info.supports_search_clause else "schema/vector_indexes_legacy"
    for name in ("schema/constraints", "schema/range_indexes", "schema/fulltext_indexes"):
        for statement in load_statements(name):
            store.run_write_text(statement)
            report.statements += 1
    _check_vector_dimensions(store, dimensions)
    for statement in load_statements(vector_file):
        store.run_write_text(statement, dimensions=dimensions)
        report.statements += 1
    store.read("schema/await_indexes")
    report.vector_indexes = {
        row["label"]: row["dimensions"] for row in store.read("schema/show_vector_indexes") if row["label"]
    }
    missing = set(EMBEDDED_LABELS) - set(report.vector_indexes)
    if missing:
        raise ConfigError(f"vector indexes missing after install for: {', '.join(sorted(missing))}")
    return report


def _check_vector_dimensions(store: Store, dimensions: int) -> None:
    for row in store.read("schema/show_vector_indexes"):
        if row["label"] in EMBEDDED_LABELS and row["dimensions"] not in (None, dimensions):
            raise ConfigError(
                f"vector index {row['name']} has {row['dimensions']} dimensions but the embedder gives "
                f"{dimensions}: use the embedder the data was written with (GRAPHMEM_EMBEDDER) or a fresh database"
            )
