"""`graphmem schema install` on a database made by the schema before per-space identity — real Neo4j."""

from __future__ import annotations

import pytest

from graphmem.db import Store, install_schema
from graphmem.model import LABELS

pytestmark = pytest.mark.integration

IDENTITY_LABELS = (*LABELS, "AuditRecord")
OLD_NAMES = {
    "Episode": "episode_id",
    "Episodic": "episodic_id",
    "Semantic": "semantic_id",
    "Tag": "tag_id",
    "Subgoal": "subgoal_id",
    "Procedural": "procedural_id",
    "AuditRecord": "audit_record_id",
}


def _id_constraints(store: Store) -> dict[tuple[str, ...], set[str]]:
    rows = store.run_read_text(
        "SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties RETURN type, labelsOrTypes, properties"
    )
    found: dict[tuple[str, ...], set[str]] = {}
    for row in rows:
        if "UNIQUE" in row["type"]:
            found.setdefault(tuple(row["properties"]), set()).add(row["labelsOrTypes"][0])
    return found


def _make_old_schema(store: Store) -> None:
    """Today's schema before the change: global `id IS UNIQUE` per label, no (space, id) constraints."""
    for row in store.run_read_text("SHOW CONSTRAINTS YIELD name, properties RETURN name, properties"):
        if row["properties"] == ["space", "id"]:
            store.run_write_text(f"DROP CONSTRAINT {row['name']}")
    for row in store.run_read_text("SHOW INDEXES YIELD name, properties, owningConstraint RETURN *"):
        if row["properties"] == ["id"] and row["owningConstraint"] is None:  # the id lookup indexes are new too
            store.run_write_text(f"DROP INDEX {row['name']}")
    # the old constraints need globally unique ids: earlier tests of this session (finished, each in its own
    # space) may have stored one id in two spaces
    store.run_write_text(
        "MATCH (n) WHERE n.id IS NOT NULL WITH n.id AS id, labels(n)[0] AS label, collect(n) AS nodes "
        "WHERE size(nodes) > 1 UNWIND nodes[1..] AS extra DETACH DELETE extra"
    )
    for label, name in OLD_NAMES.items():
        store.run_write_text(f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.id IS UNIQUE")


def test_install_migrates_global_id_constraints_to_per_space_ones(store: Store, minilm) -> None:
    try:
        _make_old_schema(store)
        assert set(IDENTITY_LABELS) <= _id_constraints(store).get(("id",), set())
    finally:
        install_schema(store, minilm.dimensions)  # the migration under test; also restores the shared schema
    after = _id_constraints(store)
    install_schema(store, minilm.dimensions)  # idempotent

    assert not after.get(("id",)), "the global id constraints are dropped"
    assert set(IDENTITY_LABELS) <= after.get(("space", "id"), set())
    assert _id_constraints(store) == after
    # and the migrated database accepts one id in two spaces
    store.run_write_text("CREATE (:Semantic {space: 'mig-a', id: 'same'}), (:Semantic {space: 'mig-b', id: 'same'})")
    store.run_write_text("MATCH (n:Semantic {id: 'same'}) WHERE n.space IN ['mig-a', 'mig-b'] DELETE n")
