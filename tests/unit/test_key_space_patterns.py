"""Key space entries: names, `*` for all, and trailing-`*` prefix patterns; every other wildcard is refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.api.auth import KeyRing, Principal
from graphmem.api.keys import parse_env_records, parse_spaces
from graphmem.api.scope import check_key_space, key_space_matches
from graphmem.cli import main
from graphmem.config import Settings, get_settings
from graphmem.errors import ConfigError, InvalidInput


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "keys.json"
    monkeypatch.setenv("GRAPHMEM_API_KEY_FILE", str(path))
    monkeypatch.delenv("GRAPHMEM_API_KEYS", raising=False)
    get_settings.cache_clear()
    yield path
    get_settings.cache_clear()


@pytest.mark.parametrize(
    ("space", "matches"),
    [
        ("team-a", True),
        ("team-alpha-1", True),
        ("team--", True),
        ("team-", False),  # the bare prefix is not a space under it
        ("team", False),
        ("teamx", False),
        ("Team-a", False),
        ("xteam-a", False),
        ("", False),
    ],
)
def test_a_prefix_pattern_matches_only_names_that_extend_the_prefix(space: str, matches: bool) -> None:
    assert key_space_matches("team-*", space) is matches


def test_star_alone_is_every_space_and_names_match_exactly() -> None:
    assert key_space_matches("*", "anything") and key_space_matches("*", "team-")
    assert key_space_matches("team-a", "team-a") and not key_space_matches("team-a", "team-ab")


@pytest.mark.parametrize("entry", ["team-*x", "*-team", "te*m-*", "**", "team-?", "team-[ab]", "t?am-*", "[", "a*b"])
def test_any_other_wildcard_use_is_refused_by_name(entry: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_key_space("--spaces", entry)
    assert caught.value.field == "--spaces" and "'prefix*' (a trailing *)" in caught.value.message


def test_parse_spaces_keeps_names_patterns_and_star() -> None:
    assert parse_spaces("spaces", " team-* , acme,* ") == ("*", "acme", "team-*")


def test_a_principal_with_a_pattern_touches_the_prefix_spaces_only() -> None:
    principal = Principal("k", "n", frozenset({"read"}), frozenset({"team-*", "acme"}))
    assert principal.may_touch("team-a") and principal.may_touch("acme")
    assert not principal.may_touch("teamx") and not principal.may_touch("team-") and not principal.may_touch("team")
    assert not principal.all_spaces and principal.has_patterns


def test_keys_create_with_a_prefix_pattern_reads_matching_spaces(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "create", "--scopes", "read", "--spaces", "team-*"]) == 0
    created = json.loads(capsys.readouterr().out)
    assert created["spaces"] == ["team-*"]
    principal = KeyRing(Settings(GRAPHMEM_API_KEY_FILE=key_file)).authenticate(f"Bearer {created['key']}", "t")
    assert principal is not None and principal.may_touch("team-a") and not principal.may_touch("teamx")


def test_keys_create_refuses_other_wildcards_in_one_line(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keys", "create", "--scopes", "read", "--spaces", "team-?"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--spaces: 'team-?': '?' is not allowed" in err and "Traceback" not in err
    assert not key_file.exists()


def test_env_key_records_refuse_other_wildcards() -> None:
    with pytest.raises(ConfigError, match="record 1"):
        parse_env_records("k1|read|te*m")
    assert parse_env_records("k1|read|team-*")[0].spaces == ("team-*",)
