"""`graphmem cypher` against the test Neo4j: reads answer, hostile statements are refused in one line
(exit 2) before the server sees them, server errors print one line; and the embedded server itself
refuses `LOAD CSV` from file URLs, whoever connects."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import ClientError

from graphmem.cli import main
from graphmem.db import Store


@pytest.fixture
def console(cli_env: Store) -> None:
    """`graphmem cypher` pointed at the test server (`cli_env`)."""


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], list[str]]:
    code = main(["cypher", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_the_embedded_server_refuses_load_csv_from_file_urls(neo4j_server) -> None:
    if neo4j_server.source != "embedded":
        pytest.skip(f"the test server is {neo4j_server.source}, not graphmem's embedded launcher")
    with (
        GraphDatabase.driver(neo4j_server.uri, auth=(neo4j_server.user, neo4j_server.password)) as driver,
        pytest.raises(ClientError) as caught,
    ):
        driver.execute_query("LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line LIMIT 1")
    assert "file" in caught.value.message.lower()


@pytest.fixture
def local_csv_url() -> Iterator[str]:
    """A CSV served over HTTP on this machine's loopback: what a LOAD CSV SSRF would fetch."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"secret,value\nmetrics,42\n"
            self.send_response(200)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/metrics.csv"
    finally:
        server.shutdown()
        server.server_close()


def test_the_embedded_server_refuses_load_csv_from_local_urls(neo4j_server, local_csv_url: str) -> None:
    if neo4j_server.source != "embedded":
        pytest.skip(f"the test server is {neo4j_server.source}, not graphmem's embedded launcher")
    port = local_csv_url.split(":")[2].split("/")[0]
    with GraphDatabase.driver(neo4j_server.uri, auth=(neo4j_server.user, neo4j_server.password)) as driver:
        for url in (local_csv_url, f"http://localhost:{port}/x.csv", f"http://[::ffff:127.0.0.1]:{port}/x.csv"):
            with pytest.raises(ClientError) as caught:
                driver.execute_query("LOAD CSV FROM $url AS line RETURN line", url=url)
            assert "blocked" in caught.value.message.lower(), (url, caught.value.message)


def test_reads_answer_one_json_object_per_row(console, store, space: str, capsys) -> None:
    store.run_write_text("UNWIND range(1, 3) AS i CREATE (:Tag {space: $s, name: 'load csv ' + i})", s=space)
    code, out, err = _run(
        capsys, "MATCH (t:Tag {space: $s}) WHERE t.name STARTS WITH 'load csv' RETURN t.name AS name ORDER BY name",
        "--param", f"s={space}",
    )  # fmt: skip
    assert (code, err) == (0, [])
    assert [json.loads(line) for line in out] == [{"name": f"load csv {i}"} for i in (1, 2, 3)]


@pytest.mark.parametrize(
    "statement",
    [
        "CALL db.labels() YIELD label RETURN count(label) AS n",
        "CALL dbms.components() YIELD name RETURN name",
        "SHOW TRANSACTIONS YIELD transactionId RETURN count(*) AS n",
    ],
)
def test_listed_procedures_and_show_commands_answer(console, capsys, statement: str) -> None:
    code, out, err = _run(capsys, statement)
    assert (code, err) == (0, []) and out


@pytest.mark.parametrize(
    ("statement", "reason"),
    [
        ("LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l", "LOAD CSV reads files and URLs"),
        ("load/**/csv FROM 'http://127.0.0.1:7474/metrics' AS l RETURN l", "LOAD CSV reads files and URLs"),
        ("TERMINATE TRANSACTIONS 'neo4j-transaction-1'", "TERMINATE manages other transactions"),
        ("CALL db.stats.collect('QUERIES')", "CALL db.stats.collect: not on the console's list"),
        ("CREATE (:Tag {name: 'x'})", "CREATE writes"),
        ("DROP INDEX semantic_text", "DROP is an administration or schema command"),
    ],
)
def test_hostile_statements_are_refused_in_one_line(console, capsys, statement: str, reason: str) -> None:
    code, out, err = _run(capsys, statement)
    assert code == 2 and out == [] and len(err) == 1
    assert err[0].startswith(f"graphmem: refused: {reason}")


def test_server_errors_print_one_line(console, capsys) -> None:
    for statement in ("MATCH (n RETURN n", "UNWIND [1, 0] AS x RETURN 1 / x AS y"):
        code, _, err = _run(capsys, statement)
        assert code == 1 and len(err) == 1 and err[0].startswith("graphmem: error: query: "), (statement, err)
        assert "Traceback" not in err[0]
