"""API keys in the database (GRAPHMEM_API_KEY_STORE=database, the default with NEO4J_URI): `graphmem keys` as
an operator uses it, the key file imported once and never dropped, key nodes out of every tenant's reach, and
one indexed read per request."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graphmem.api.auth import KeyRing, Unauthenticated
from graphmem.api.key_table import KeyTable, import_key_file
from graphmem.api.keys import KeyFile, KeyRecord, hash_key
from graphmem.cli import main
from graphmem.config import Settings, get_settings
from graphmem.db import Store, install_schema
from graphmem.db.queries import load_query
from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiKeys, error_codes, make_client, seed_graph


@pytest.fixture(scope="module")
def key_db(neo4j_server) -> Iterator[Store]:
    """The test server with graphmem's schema (the api_key_id constraint among it); no embedder model loaded."""
    with Store(neo4j_server.uri, neo4j_server.user, neo4j_server.password) as store:
        install_schema(store, 384)
        yield store


@pytest.fixture
def db_env(neo4j_server, key_db: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """`graphmem` pointed at the test server as a deployment would be: NEO4J_URI set, no key store named."""
    monkeypatch.setenv("NEO4J_URI", neo4j_server.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_server.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_server.password)
    monkeypatch.setenv("GRAPHMEM_SECRETS_DIR", str(tmp_path / "secrets"))
    for name in ("GRAPHMEM_API_KEY_STORE", "GRAPHMEM_API_KEY_FILE", "GRAPHMEM_API_KEYS"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield get_settings()
    get_settings.cache_clear()


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["keys", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def _stored(store: Store, key_id: str) -> dict[str, Any]:
    rows = store.run_read_text("MATCH (k:ApiKey {key_id: $id}) RETURN properties(k) AS p", id=key_id)
    assert len(rows) == 1
    return dict(rows[0]["p"])


def test_keys_cli_creates_lists_and_revokes_keys_in_the_database(
    db_env: Settings, key_db: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    assert db_env.key_store == "database"
    code, out, _ = _cli(capsys, "create", "--scopes", "read,write", "--spaces", "a,team-*", "--name", "agent")
    created = json.loads(out[0])
    assert code == 0 and created["source"] == "database" and created["stored_in"].startswith("the database at")
    stored = _stored(key_db, created["key_id"])
    assert stored["sha256"] == hash_key(created["key"]) and created["key"] not in map(str, stored.values())
    assert stored["scopes"] == ["read", "write"] and stored["spaces"] == ["a", "team-*"] and "space" not in stored
    assert not (Path(db_env.secrets_dir) / "api-keys.json").exists()  # nothing written to a local file

    ring = KeyRing(db_env, key_db)
    principal = ring.authenticate(f"Bearer {created['key']}", "test")
    assert principal is not None and principal.name == "agent" and principal.may_touch("team-x")
    code, out, _ = _cli(capsys, "list")
    listed = {row["key_id"]: row for row in map(json.loads, out)}
    assert listed[created["key_id"]]["revoked_at"] is None and "key" not in listed[created["key_id"]]
    assert all("sha256" not in row for row in listed.values())

    code, out, _ = _cli(capsys, "revoke", created["key_id"])
    assert code == 0 and json.loads(out[0])["revoked_at"]
    with pytest.raises(Unauthenticated):  # the same ring, no restart: the next request reads the record again
        ring.authenticate(f"Bearer {created['key']}", "test")
    code, _, err = _cli(capsys, "revoke", "nope0000")
    assert code == 1 and "key_id: no key 'nope0000' in the database" in err


def test_ensure_dev_keeps_its_key_in_the_database(
    db_env: Settings, key_db: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _cli(capsys, "ensure-dev")
    dev_file = Path(db_env.secrets_dir) / "dev-api-key"
    assert code == 0 and "created development API key" in out[0] and "the database" in out[0]
    assert oct(dev_file.stat().st_mode & 0o777) == "0o600"
    code, out, _ = _cli(capsys, "ensure-dev")
    assert code == 0 and not any("created" in line for line in out) and str(dev_file) in out[0]
    principal = KeyRing(db_env, key_db).authenticate("Bearer " + dev_file.read_text().strip(), "test")
    assert principal is not None and principal.all_spaces and principal.has_scope("admin")


def test_a_key_file_is_imported_once_and_no_key_is_silently_dropped(
    db_env: Settings, key_db: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    held_secret, held = KeyTable(key_db).create(("read",), ("*",), "already in the database")
    key_file = KeyFile(tmp_path / "old-keys.json")
    active_secret, active = key_file.create(("read", "write"), ("acme",), "agent")
    revoked_secret, revoked = key_file.create(("read",), ("acme",), "retired")
    key_file.revoke(revoked.key_id)
    clash = KeyRecord(held.key_id, hash_key("gmk_other_secret"), ("admin",), ("*",), "clash", "2024-01-01T00:00:00Z")
    key_file.save([*key_file.load(), clash])
    monkeypatch.setenv("GRAPHMEM_API_KEY_FILE", str(key_file.path))
    get_settings.cache_clear()
    settings = get_settings()

    code, out, err = _cli(capsys, "list")  # any keys command imports first, and says so
    assert code == 0 and "2 imported into the database" in err
    assert f"1 NOT imported (key id held by another key: {held.key_id})" in err
    listed = {row["key_id"]: row for row in map(json.loads, out)}
    assert listed[active.key_id]["name"] == "agent" and listed[active.key_id]["created_at"]
    assert listed[revoked.key_id]["revoked_at"] and listed[held.key_id]["name"] == "already in the database"

    ring = KeyRing(settings, key_db)
    assert ring.authenticate(f"Bearer {active_secret}", "t").key_id == active.key_id  # type: ignore[union-attr]
    assert ring.authenticate(f"Bearer {held_secret}", "t").key_id == held.key_id  # type: ignore[union-attr]
    with pytest.raises(Unauthenticated):
        ring.authenticate(f"Bearer {revoked_secret}", "t")  # still revoked after the move

    KeyTable(key_db).revoke(active.key_id)
    again = import_key_file(settings, KeyTable(key_db))
    assert again is not None and again.imported == [] and again.conflicts == [held.key_id]
    with pytest.raises(Unauthenticated):  # importing again never brings a revoked key back
        ring.authenticate(f"Bearer {active_secret}", "t")
    assert key_file.path.exists()  # the file stays where it was
    capsys.readouterr()
    assert main(["keys", "import"]) == 0
    assert "0 imported into the database" in capsys.readouterr().out


def test_a_tenant_never_reads_api_key_nodes(db_env: Settings, key_db: Store, space: str, capsys) -> None:
    embedder = HashingEmbedder(384)
    seed_graph(key_db, space, embedder)
    secret, record = KeyTable(key_db).create(("admin", "read", "write"), ("*",), "zanzibar quokka office")
    api = make_client(key_db, embedder, ApiKeys(), Path("/nonexistent/keys.json"), GRAPHMEM_API_KEY_STORE="database")
    assert api.gql("{ viewer { keyId } }", key=secret)["data"]["viewer"]["keyId"] == record.key_id

    answers = [
        api.gql(
            "query($s: String!, $q: String!) { recall(space: $s, query: $q, first: 20) { hits { nodeId text } } }",
            {"s": space, "q": f"zanzibar quokka office {record.key_id}"},
            key=secret,
        )
    ]
    for root in ("semantics", "episodics", "episodes", "tags", "subgoals", "procedures"):
        answers.append(
            api.gql(f'{{ {root}(space: "{space}", first: 100) {{ edges {{ node {{ id }} }} }} }}', key=secret)
        )
    for forged in (f"ApiKey:{space}\x1f{record.key_id}", f"ApiKey:{record.key_id}", f"ApiKey:\x1f{record.key_id}"):
        gid = base64.b64encode(forged.encode()).decode()
        body = api.gql("query($id: ID!) { node(id: $id) { id } }", {"id": gid}, key=secret)
        assert body.get("data") in (None, {"node": None}) and error_codes(body) in ([], ["INVALID_INPUT"])
        answers.append(body)
    assert answers[0]["data"], answers[0]
    assert answers[0]["data"]["recall"]["hits"]  # the space answers; key nodes are simply not among the answers
    text = json.dumps(answers)
    assert record.key_id not in text and record.sha256 not in text and "zanzibar" not in text

    # the operators' console refuses key nodes by name and in results, whatever the statement
    for statement in ("MATCH (k:ApiKey) RETURN k", "MATCH (k:`ApiKey`) RETURN k.sha256"):
        assert main(["cypher", statement]) == 2
        assert "not readable through the console" in capsys.readouterr().err
    element = key_db.run_read_text("MATCH (k:ApiKey {key_id: $id}) RETURN elementId(k) AS e", id=record.key_id)[0]["e"]
    assert main(["cypher", "MATCH (n) WHERE elementId(n) = $e RETURN [n] AS found", "--param", f"e={element}"]) == 2
    out, err = capsys.readouterr()
    assert "never shows" in err and record.sha256 not in out


def test_a_request_costs_one_read_through_the_key_id_index(db_env: Settings, key_db: Store) -> None:
    _, summary, _ = key_db.driver.execute_query("EXPLAIN " + load_query("keys/find"), {"key_id": "x"})

    def operators(plan: Any) -> list[str]:
        return [
            plan["operatorType"].split("@")[0],
            *(op for child in plan.get("children", []) for op in operators(child)),
        ]

    assert "NodeUniqueIndexSeek" in operators(summary.plan)
    secret, _ = KeyTable(key_db).create(("read",), ("*",), "timing")
    ring = KeyRing(db_env, key_db)
    before = key_db.queries_run
    samples = []
    for _ in range(50):
        started = time.perf_counter()
        ring.authenticate(f"Bearer {secret}", "t")
        samples.append((time.perf_counter() - started) * 1000)
    assert key_db.queries_run - before == 50  # exactly one query per request, never cached
    round_trips = []
    for _ in range(50):
        started = time.perf_counter()
        key_db.run_read_text("RETURN 1 AS one")
        round_trips.append((time.perf_counter() - started) * 1000)
    print(f"key check: median {sorted(samples)[25]:.2f} ms; a bare RETURN 1: {sorted(round_trips)[25]:.2f} ms")


def test_while_the_database_is_down_a_key_check_says_so_instead_of_refusing_the_key(tmp_path: Path) -> None:
    from tests.support.service import free_port

    with Store(f"bolt://127.0.0.1:{free_port()}", "neo4j", "x", connection_timeout=1, max_retry_time=0) as down:
        api = make_client(down, HashingEmbedder(384), ApiKeys(), tmp_path / "k.json", GRAPHMEM_API_KEY_STORE="database")
        body = api.gql("{ viewer { keyId } }", key="gmk_1a2b3c4d_secret")
        assert body["data"] is None and error_codes(body) == ["STORE_UNAVAILABLE"]
        assert api.gql("{ health { status } }", key="gmk_1a2b3c4d_secret")["data"]["health"]["status"] != "ok"
