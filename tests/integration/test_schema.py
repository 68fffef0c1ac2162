"""Schema install against a real Neo4j: idempotent, complete, and the indexes answer."""

from __future__ import annotations

import time

from graphmem.db import Store, install_schema
from graphmem.model import EMBEDDED_LABELS, LABELS
from graphmem.timeutil import FAR_FUTURE, utc_now


def _schema_snapshot(store: Store) -> tuple[set[tuple[str, str]], set[str]]:
    indexes = {(r["name"], r["type"]) for r in store.run_read_text("SHOW INDEXES YIELD name, type")}
    constraints = {r["name"] for r in store.run_read_text("SHOW CONSTRAINTS YIELD name")}
    return indexes, constraints


def test_install_is_idempotent(store: Store, minilm) -> None:
    before = _schema_snapshot(store)
    report = install_schema(store, minilm.dimensions)
    assert _schema_snapshot(store) == before
    assert report.vector_indexes == dict.fromkeys(EMBEDDED_LABELS, minilm.dimensions)


def test_vector_and_fulltext_indexes_and_id_constraints_exist(store: Store) -> None:
    rows = store.run_read_text(
        "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, state "
        "RETURN name, type, labelsOrTypes, properties, state"
    )
    vector = {r["labelsOrTypes"][0] for r in rows if r["type"] == "VECTOR"}
    fulltext = {r["labelsOrTypes"][0] for r in rows if r["type"] == "FULLTEXT"}
    assert vector == {"Semantic", "Tag", "Subgoal", "Procedural", "Episodic"}
    assert {"Semantic", "Episodic", "Procedural", "Tag"} <= fulltext
    assert all(r["state"] == "ONLINE" for r in rows)
    constraints = store.run_read_text(
        "SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties RETURN type, labelsOrTypes, properties"
    )
    unique = {(c["labelsOrTypes"][0], tuple(c["properties"])) for c in constraints if "UNIQUE" in c["type"]}
    assert {(label, ("space", "id")) for label in LABELS} <= unique  # ids are unique per space
    assert not {label for label, props in unique if props == ("id",)}  # and never global


def test_lexical_leg_names_the_text_fields_its_indexes_hold(store: Store) -> None:
    # `TEXT_FIELDS` is how the lexical leg addresses each index's fields; it must follow the schema file
    from graphmem.read.legs.lexical import TEXT_FIELDS

    rows = store.run_read_text("SHOW FULLTEXT INDEXES YIELD name, properties RETURN name, properties")
    held = {r["name"]: r["properties"] for r in rows}
    for kind, fields in TEXT_FIELDS.items():
        assert held[f"{kind}_text"] == list(fields), kind  # analysts' indexes: a space name is no word in them
        assert held[f"{kind}_text_in_space"] == [*fields, "space"], kind  # the lexical leg's, scoped in Lucene


def _write_facts(store: Store, space: str, texts: list[str], vectors: list[list[float]]) -> None:
    now = utc_now()
    rows = [
        {"id": f"{space}-{i}", "text": t, "embedding": v} for i, (t, v) in enumerate(zip(texts, vectors, strict=True))
    ]
    store.run_write_text(
        """
        UNWIND $rows AS row
        CREATE (n:Semantic {id: row.id, space: $space, text: row.text, embedding: row.embedding,
                            status: 'active', valid_from: $now, valid_to: $far,
                            recorded_at: $now, expired_at: $far})
        """,
        rows=rows,
        space=space,
        now=now,
        far=FAR_FUTURE,
    )
    time.sleep(1.5)  # vector indexes are eventually consistent: give the index a moment to see new nodes


KNN = """
CYPHER 25 MATCH (n:Semantic)
SEARCH n IN (VECTOR INDEX semantic_embedding FOR $vector WHERE n.space = $space LIMIT 3) SCORE AS score
RETURN n.text AS text, score ORDER BY score DESC
"""


def test_vector_index_answers_knn_with_the_expected_neighbour(store: Store, minilm, space: str) -> None:
    texts = [
        "The deployment pipeline runs on Jenkins every night.",
        "Alice prefers green tea over coffee in the morning.",
        "The quarterly revenue grew by twelve percent.",
    ]
    _write_facts(store, space, texts, minilm.embed(texts))
    [query] = minilm.embed(["What does Alice like to drink?"])
    rows = store.run_read_text(KNN, vector=query, space=space)
    assert rows[0]["text"] == texts[1]


def test_data_in_one_space_is_invisible_from_another(store: Store, minilm, space: str) -> None:
    other = space + "-other"
    _write_facts(store, space, ["Bob's badge number is 4711."], minilm.embed(["Bob's badge number is 4711."]))
    [query] = minilm.embed(["badge number"])
    assert store.run_read_text(KNN, vector=query, space=other) == []
    assert len(store.run_read_text(KNN, vector=query, space=space)) == 1


def test_rows_keep_plain_values_as_they_are_and_convert_nodes_and_maps(store: Store, space: str) -> None:
    store.run_write_text(
        "CREATE (:Tag {id: $id, space: $space, name: 'Acme', norm_name: 'acme'})", id=space + "-t", space=space
    )
    plain = store.run_read_text(
        "RETURN 'f1' AS id, 0.5 AS score, null AS seq, ['Acme', 'Lyon'] AS tags, true AS ok, 3 AS n"
    )
    assert plain == [{"id": "f1", "score": 0.5, "seq": None, "tags": ["Acme", "Lyon"], "ok": True, "n": 3}]
    assert list(plain[0]) == ["id", "score", "seq", "tags", "ok", "n"]  # column order kept
    graphy = store.run_read_text(
        "MATCH (t:Tag {id: $id}) RETURN t, [t] AS tags, {names: [t.name]} AS meta", id=space + "-t"
    )
    expected = {"id": space + "-t", "space": space, "name": "Acme", "norm_name": "acme"}
    assert graphy == [{"t": expected, "tags": [expected], "meta": {"names": ["Acme"]}}]
    store.run_write_text("MATCH (t:Tag {id: $id}) DELETE t", id=space + "-t")


def test_install_rebuilds_vector_indexes_of_the_other_quantization_and_keeps_their_data(
    store: Store, minilm, space: str
) -> None:
    def quantization() -> dict[str, str]:
        rows = store.read("schema/show_vector_indexes")
        return {r["name"]: r["quantization"] for r in rows if r["name"] == f"{r['label'].lower()}_embedding"}

    vector = minilm.embed(["The Lyon office closes on Fridays"])[0]
    store.run_write_text(
        "CREATE (:Tag {id: $id, space: $space, name: 'Lyon office', norm_name: 'lyon office', embedding: $vector})",
        id=space + "-t",
        space=space,
        vector=vector,
    )
    try:
        assert set(quantization().values()) == {"NONE"}  # the default: full-precision vectors
        assert set(install_schema(store, minilm.dimensions, quantized=True).rebuilt) == set(quantization())
        assert set(quantization().values()) == {"BINARY"}
        assert install_schema(store, minilm.dimensions, quantized=True).rebuilt == []
        assert len(install_schema(store, minilm.dimensions).rebuilt) == len(EMBEDDED_LABELS)
        assert set(quantization().values()) == {"NONE"}
        # rebuilt from the stored embeddings: the tag is found by the rebuilt index
        rows = store.run_read_text(
            "CYPHER 25 MATCH (t:Tag) SEARCH t IN (VECTOR INDEX tag_embedding FOR $vector WHERE t.space = $space "
            "LIMIT 1) SCORE AS score RETURN t.id AS id",
            vector=vector,
            space=space,
        )
        assert [r["id"] for r in rows] == [space + "-t"]
    finally:
        install_schema(store, minilm.dimensions)
        store.run_write_text("MATCH (t:Tag {id: $id}) DELETE t", id=space + "-t")
