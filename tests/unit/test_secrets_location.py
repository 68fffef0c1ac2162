"""Where secrets live: the generated Neo4j password and the API key files sit in an owner-only folder
outside every folder the Neo4j process may read, and the embedded / Docker servers cannot LOAD CSV files."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.cli import main
from graphmem.config import Settings, get_settings
from graphmem.db.embedded import PRIVATE_NETWORKS, EmbeddedNeo4j
from graphmem.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh HOME with no graphmem settings in the environment."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("GRAPHMEM_API_KEY_FILE", "GRAPHMEM_API_KEYS", "GRAPHMEM_SECRETS_DIR", "NEO4J_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("GRAPHMEM_NEO4J_DATA", raising=False)
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


def test_the_generated_password_is_owner_only_and_outside_the_data_folder(home: Path) -> None:
    settings = Settings()
    embedded = EmbeddedNeo4j(settings)
    password = embedded.password()
    secret_file = home / ".config" / "graphmem" / "neo4j-password"
    assert embedded.password_file == secret_file and secret_file.read_text().strip() == password
    assert _mode(secret_file) == 0o600 and _mode(secret_file.parent) == 0o700
    data = settings.neo4j_data_dir.expanduser().resolve()
    assert data not in secret_file.resolve().parents
    assert not (data / "password").exists()
    assert EmbeddedNeo4j(Settings()).password() == password  # generated once


def test_a_password_left_in_the_data_folder_moves_out(home: Path) -> None:
    settings = Settings()
    old = settings.neo4j_data_dir.expanduser() / "password"
    old.parent.mkdir(parents=True)
    old.write_text("an-old-generated-pw\n")
    assert EmbeddedNeo4j(settings).password() == "an-old-generated-pw"
    assert not old.exists()
    moved = home / ".config" / "graphmem" / "neo4j-password"
    assert moved.read_text().strip() == "an-old-generated-pw" and _mode(moved) == 0o600


def test_secrets_inside_the_data_folder_are_refused(home: Path, tmp_path: Path) -> None:
    data = tmp_path / "neo4j"
    settings = Settings(GRAPHMEM_NEO4J_DATA=data, GRAPHMEM_SECRETS_DIR=data / "secrets")
    with pytest.raises(ConfigError, match=r"GRAPHMEM_SECRETS_DIR .* inside the Neo4j data folder"):
        EmbeddedNeo4j(settings).password()


def test_the_dev_key_and_key_file_default_to_the_owner_only_folder(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "ensure-dev"]) == 0
    folder = home / ".config" / "graphmem"
    assert str(folder / "dev-api-key") in capsys.readouterr().out
    assert _mode(folder) == 0o700
    assert _mode(folder / "dev-api-key") == 0o600 and _mode(folder / "api-keys.json") == 0o600
    data = Settings().neo4j_data_dir.expanduser().resolve()
    assert all(data not in p.resolve().parents for p in folder.iterdir())


def test_key_files_at_the_old_default_move_to_the_owner_only_folder(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = home / ".local" / "share" / "graphmem"
    old.mkdir(parents=True)
    assert main(["keys", "ensure-dev", "--output", str(old / "dev-api-key")]) == 0
    (home / ".config" / "graphmem" / "api-keys.json").rename(old / "api-keys.json")
    dev_key = (old / "dev-api-key").read_text()
    capsys.readouterr()
    assert main(["keys", "ensure-dev"]) == 0
    out = capsys.readouterr().out
    folder = home / ".config" / "graphmem"
    assert "created" not in out and str(folder / "dev-api-key") in out  # the same key, moved
    assert (folder / "dev-api-key").read_text() == dev_key and not (old / "dev-api-key").exists()
    assert not (old / "api-keys.json").exists() and _mode(folder / "api-keys.json") == 0o600


def test_the_embedded_server_turns_off_load_csv_file_urls_and_local_urls(home: Path, tmp_path: Path) -> None:
    embedded = EmbeddedNeo4j(Settings(GRAPHMEM_NEO4J_DATA=tmp_path / "neo4j"))
    embedded.paths.home.mkdir(parents=True)
    embedded._write_conf()
    conf = embedded.paths.conf.read_text().splitlines()
    assert "dbms.security.allow_csv_import_from_file_urls=false" in conf
    assert f"server.directories.import={tmp_path / 'neo4j' / 'import'}" in conf
    assert f"internal.dbms.cypher_ip_blocklist={','.join(PRIVATE_NETWORKS)}" in conf


def test_docker_compose_turns_off_load_csv_file_urls_and_local_urls() -> None:
    import yaml

    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    env = compose["services"]["neo4j"]["environment"]
    assert env["NEO4J_dbms_security_allow__csv__import__from__file__urls"] == "false"
    assert env["NEO4J_server_directories_import"] == "/var/lib/neo4j/import"
    assert env["NEO4J_internal_dbms_cypher__ip__blocklist"].split(",") == list(PRIVATE_NETWORKS)
