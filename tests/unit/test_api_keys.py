"""API keys: `graphmem keys ...` as an operator uses it, and how keys are matched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.api.auth import KeyRing, Unauthenticated
from graphmem.api.keys import key_id_of, parse_env_records
from graphmem.cli import main
from graphmem.config import Settings, get_settings
from graphmem.errors import ConfigError


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "keys.json"
    monkeypatch.setenv("GRAPHMEM_API_KEY_FILE", str(path))
    monkeypatch.setenv("GRAPHMEM_API_KEY_STORE", "file")
    monkeypatch.delenv("GRAPHMEM_API_KEYS", raising=False)
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


def test_create_list_revoke(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "create", "--scopes", "read,write", "--spaces", "a,b", "--name", "agent"]) == 0
    created = json.loads(capsys.readouterr().out)
    assert created["scopes"] == ["read", "write"] and created["spaces"] == ["a", "b"]
    assert created["key"] not in key_file.read_text()  # only the hash is stored
    ring = KeyRing(Settings(GRAPHMEM_API_KEY_FILE=key_file))
    principal = ring.authenticate(f"Bearer {created['key']}", "test")
    assert principal is not None and principal.may_touch("a") and not principal.may_touch("c")
    assert main(["keys", "list"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [k["key_id"] for k in listed] == [created["key_id"]] and "key" not in listed[0]
    assert main(["keys", "revoke", created["key_id"]]) == 0
    with pytest.raises(Unauthenticated):
        ring.authenticate(f"Bearer {created['key']}", "test")
    assert main(["keys", "revoke", "nope"]) == 1


def test_import_needs_the_database_store(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "import"]) == 1
    assert "set GRAPHMEM_API_KEY_STORE=database" in capsys.readouterr().err


def test_bad_scopes_are_refused_by_name(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "create", "--scopes", "read,root", "--spaces", "a"]) == 1
    assert "--scopes: unknown scope 'root'" in capsys.readouterr().err
    assert not key_file.exists()


def test_ensure_dev_creates_once_and_says_where(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "ensure-dev"]) == 0
    first = capsys.readouterr().out
    dev_key_file = key_file.with_name("dev-api-key")
    assert "created development API key" in first and str(dev_key_file) in first
    assert oct(dev_key_file.stat().st_mode & 0o777) == "0o600"
    assert main(["keys", "ensure-dev"]) == 0
    assert "created" not in capsys.readouterr().out
    ring = KeyRing(Settings(GRAPHMEM_API_KEY_FILE=key_file))
    principal = ring.authenticate("Bearer " + dev_key_file.read_text().strip(), "test")
    assert principal is not None and principal.all_spaces and principal.has_scope("write")


def test_env_records_accept_raw_keys_and_digests() -> None:
    import hashlib

    digest = hashlib.sha256(b"k2").hexdigest()
    keys = parse_env_records(f"k1|read|a; sha256:{digest}|read,write|*|ops")
    ring = KeyRing(Settings(GRAPHMEM_API_KEYS=f"k1|read|a; sha256:{digest}|read,write|*|ops",
                            GRAPHMEM_API_KEY_FILE="/nonexistent/keys.json"))  # fmt: skip
    assert [k.name for k in keys] == ["env-1", "ops"]
    assert ring.authenticate("Bearer k2", "t").name == "ops"  # type: ignore[union-attr]
    with pytest.raises(Unauthenticated):
        ring.authenticate("Basic k1", "t")
    with pytest.raises(ConfigError, match="record 1"):
        parse_env_records("k1|read,fly|a")


def test_the_key_store_defaults_to_the_database_with_a_shared_server_and_to_the_file_with_the_embedded_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("NEO4J_URI", "GRAPHMEM_API_KEY_STORE"):
        monkeypatch.delenv(name, raising=False)
    assert Settings().key_store == "file"  # `make run`: the embedded server, one machine
    assert Settings(NEO4J_URI="neo4j+s://x.databases.neo4j.io").key_store == "database"
    assert Settings(NEO4J_URI="bolt://db:7687", GRAPHMEM_API_KEY_STORE="file").key_store == "file"
    assert Settings(GRAPHMEM_API_KEY_STORE="database").key_store == "database"
    with pytest.raises(ValueError, match="GRAPHMEM_API_KEY_STORE"):
        Settings(GRAPHMEM_API_KEY_STORE="redis")
    with pytest.raises(ConfigError, match="needs the Neo4j store"):
        KeyRing(Settings(GRAPHMEM_API_KEY_STORE="database"))


def test_the_key_id_is_read_from_the_key_and_nothing_else_passes_for_one() -> None:
    assert key_id_of("gmk_1a2b3c4d_Zx-_9") == "1a2b3c4d"
    too_long = f"gmk_{'a' * 65}_secret"  # never sent to the database
    for presented in ("gmk_1a2b3c4d", "gmk__secret", "gmk_1a2b_", "Bearer gmk_1_2", "sk-gmk_1_2", "", too_long):
        assert key_id_of(presented) is None, presented
