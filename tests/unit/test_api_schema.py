"""The committed schema.graphql is exactly what the code generates (`graphmem export-schema`)."""

from __future__ import annotations

from pathlib import Path

from graphmem.cli.serve_cmd import export_sdl

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schema.graphql"


def test_schema_graphql_has_not_drifted() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == export_sdl(), (
        "schema.graphql is stale: run `graphmem export-schema --output schema.graphql`"
    )


def test_every_node_type_is_reachable_by_global_id() -> None:
    sdl = export_sdl()
    for label in ("Semantic", "Procedural", "Episodic", "Episode", "Tag", "Subgoal"):
        assert f"type {label} implements" in sdl and "Node" in sdl.split(f"type {label} implements")[1].split("{")[0]
