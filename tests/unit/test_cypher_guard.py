"""The read-only console's statement guard (`graphmem.db.readonly`): hostile spellings are refused by
parsing, and ordinary read queries — including strings and names that merely mention a keyword — pass."""

from __future__ import annotations

import pytest

from graphmem.db.readonly import READ_ONLY_PROCEDURES, refusal, tokenize

LOAD_CSV = [
    "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
    "load csv from 'file:///etc/passwd' as line return line",
    "LoAd CsV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD/**/CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD /* a comment */ CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD // line comment\nCSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD\tCSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD\r\nCSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD\u00a0CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD\u3000CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD CSV WITH HEADERS FROM 'http://127.0.0.1:8000/metrics' AS row RETURN row",
    "WITH 1 AS x LOAD CSV FROM 'https://example.org/a.csv' AS l RETURN l",
    "USING PERIODIC COMMIT LOAD CSV FROM 'file:///x' AS l RETURN l",
    "CALL { LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l } RETURN l",
    "MATCH (n) WHERE n.x = 'a' LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "RETURN 'it\\'s' AS a LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    'RETURN "say \\"hi\\"" AS a LOAD CSV FROM "file:///etc/passwd" AS l RETURN l',
    "EXPLAIN LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "PROFILE LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "CYPHER 25 LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "LOAD C\u017fV FROM 'file:///etc/passwd' AS l RETURN l",  # long s folds to s
    "\uff2c\uff2f\uff21\uff24 CSV FROM 'file:///etc/passwd' AS l RETURN l",  # fullwidth LOAD
]

TRANSACTIONS = [
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
    "terminate transaction 'neo4j-transaction-1'",
    "TERMINATE/**/TRANSACTIONS $ids",
    "SHOW TRANSACTIONS YIELD transactionId AS id TERMINATE TRANSACTIONS id",
    "CALL dbms.killTransaction('neo4j-transaction-1')",
    "CALL dbms.killQuery('query-1')",
]

PROCEDURES = [
    "CALL db.stats.collect('QUERIES')",
    "call DB.STATS.COLLECT('QUERIES')",
    "CALL db . stats . collect('QUERIES')",
    "CALL db/**/.stats/* x */.collect('QUERIES')",
    "CALL `db`.`stats`.`collect`('QUERIES')",
    "CALL `db.stats.collect`('QUERIES')",
    "CALL db.stats.clear('QUERIES')",
    "CALL db.createLabel('X')",
    "CALL db.clearQueryCaches()",
    "CALL dbms.listConfig()",
    "CALL db.stats.collect",
    "MATCH (n) CALL db.stats.collect('QUERIES') YIELD section RETURN section",
    "CALL { CALL db.stats.collect('QUERIES') } RETURN 1",
    "CALL (n) { CALL db.createLabel('X') } RETURN 1",
]

WRITES_AND_ADMIN = [
    "CREATE (n:Semantic {id: 'x'})",
    "MATCH (n) SET n.x = 1",
    "MATCH (n) DETACH DELETE n",
    "MATCH (n) REMOVE n.x",
    "MERGE (n:Tag {name: 'x'})",
    "FOREACH (x IN [1] | CREATE (:A))",
    "DROP INDEX semantic_text",
    "CREATE INDEX x FOR (n:A) ON (n.b)",
    "DROP CONSTRAINT c",
    "ALTER USER neo4j SET PASSWORD 'x'",
    "CREATE USER bob SET PASSWORD 'pw'",
    "GRANT ROLE admin TO bob",
    "STOP DATABASE neo4j",
    "START DATABASE neo4j",
    "CREATE DATABASE other",
    "USE system SHOW USERS",
    "MATCH (n) RETURN n; MATCH (m) DETACH DELETE m",
]

UNREADABLE = [
    "RETURN 'unterminated",
    "RETURN `unterminated",
    "RETURN 1 /* unterminated",
    "LOAD\u200bCSV FROM 'file:///etc/passwd' AS l RETURN l",  # zero-width space: refused outright
    "RETURN 1 // x\u2028LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
    "RETURN 1 // x\u2028'\nLOAD CSV FROM 'file:///etc/passwd' AS l RETURN l //'",
    "LOAD\x00CSV FROM 'file:///x' AS l RETURN l",
    "",
    "   // only a comment",
]

READS = [
    "MATCH (f:Semantic {space: $s}) RETURN f.text LIMIT 5",
    "RETURN 'LOAD CSV FROM file:///etc/passwd' AS text",
    'RETURN "TERMINATE TRANSACTIONS" AS t, "CALL db.stats.collect()" AS c',
    "MATCH (n) WHERE n.text CONTAINS 'load csv' RETURN n.text",
    "// LOAD CSV FROM 'file:///etc/passwd'\nMATCH (n) RETURN count(n)",
    "/* CREATE (n) */ MATCH (n) RETURN count(n)",
    "MATCH (n:`LOAD CSV`) RETURN n",
    "MATCH (n) RETURN n.load AS load, n.call, n.set, n.create, n.delete",
    "MATCH (start)-[r]->(stop) RETURN start, stop, r",
    "MATCH (terminate) RETURN terminate",
    "RETURN {set: 1, create: 2, delete: 3} AS m",
    "MATCH (n:Create|Delete) RETURN n",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.relationshipTypes()",
    "CALL db.propertyKeys()",
    "CALL db.schema.visualization()",
    "CALL db.schema.nodeTypeProperties()",
    "CALL db.index.fulltext.queryNodes('semantic_text', 'lyon') YIELD node, score RETURN node.text, score",
    "CALL db.index.vector.queryNodes('semantic_embedding', 5, $v) YIELD node RETURN node.id",
    "CALL dbms.components() YIELD name, versions RETURN *",
    "call DB.LABELS()",
    "CALL { MATCH (n:Semantic) RETURN n LIMIT 1 } RETURN n.text",
    "MATCH (n) CALL (n) { MATCH (n)-->(m) RETURN count(m) AS c } RETURN c",
    "SHOW TRANSACTIONS",
    "SHOW INDEXES YIELD name, type",
    "SHOW CONSTRAINTS",
    "SHOW PROCEDURES YIELD name",
    "MATCH (n) RETURN count(n);",
    "MATCH (n) WHERE n.name = 'O\\'Brien' RETURN n",
    "MATCH (n) WHERE n.`weird``name` = 1 RETURN n",
    "EXPLAIN MATCH (n) RETURN n",
    "CYPHER 25 MATCH (n:Semantic) WHERE n.text STARTS WITH 'x' RETURN n",
    "RETURN 'caf\u00e9' AS word, '\u200b' AS zero_width_in_a_string",
]


@pytest.mark.parametrize("statement", LOAD_CSV)
def test_load_csv_is_refused_in_every_spelling(statement: str) -> None:
    assert refusal(statement) == "LOAD CSV reads files and URLs"


@pytest.mark.parametrize("statement", TRANSACTIONS)
def test_transaction_management_is_refused(statement: str) -> None:
    reason = refusal(statement)
    assert reason is not None and ("TERMINATE" in reason or "read-only procedures" in reason)


@pytest.mark.parametrize("statement", PROCEDURES)
def test_procedures_off_the_read_only_list_are_refused(statement: str) -> None:
    reason = refusal(statement)
    assert reason is not None and "not on the console's list of read-only procedures" in reason


def test_db_stats_collect_is_named_in_its_refusal() -> None:
    assert refusal("CALL `db`.stats . /**/ collect('QUERIES')") == (
        "CALL db.stats.collect: not on the console's list of read-only procedures"
    )
    assert "db.stats.collect" not in READ_ONLY_PROCEDURES


@pytest.mark.parametrize("statement", WRITES_AND_ADMIN)
def test_writes_admin_and_schema_commands_are_refused_by_parsing(statement: str) -> None:
    assert refusal(statement) is not None


@pytest.mark.parametrize("statement", UNREADABLE)
def test_statements_that_cannot_be_read_safely_are_refused(statement: str) -> None:
    assert refusal(statement) is not None


@pytest.mark.parametrize("statement", READS)
def test_ordinary_reads_pass(statement: str) -> None:
    assert refusal(statement) is None


def test_tokens_drop_comments_and_keep_literals_apart() -> None:
    tokens = tokenize("MATCH /* c */ (n:`a``b`) // x\nWHERE n.t = 'LOAD CSV' RETURN n")
    assert [(t.kind, t.text) for t in tokens if t.kind != "punct"] == [
        ("word", "MATCH"),
        ("word", "n"),
        ("name", "a`b"),
        ("word", "WHERE"),
        ("word", "n"),
        ("word", "t"),
        ("string", "LOAD CSV"),
        ("word", "RETURN"),
        ("word", "n"),
    ]
