"""A key created for `team-*` over the CLI reads the team's spaces through the API, and a look-alike space is
refused exactly as any space the key does not cover: no hint that it exists."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from graphmem.cli import main
from graphmem.config import get_settings
from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiKeys, error_codes, make_client, seed_graph

FACTS = "query($s: String!) { semantics(space: $s) { edges { node { id text } } } }"


def test_a_prefix_key_reads_its_spaces_and_a_look_alike_is_refused_like_any_other(
    store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    team = f"team{uuid.uuid4().hex[:8]}"
    embedder = HashingEmbedder(384)
    member, look_alike = seed_graph(store, f"{team}-a", embedder), seed_graph(store, f"{team}x", embedder)
    key_file = tmp_path / "keys.json"
    monkeypatch.setenv("GRAPHMEM_API_KEY_FILE", str(key_file))
    get_settings.cache_clear()
    try:
        assert main(["keys", "create", "--scopes", "read", "--spaces", f"{team}-*"]) == 0
    finally:
        get_settings.cache_clear()
    key = json.loads(capsys.readouterr().out)["key"]
    keys = ApiKeys()
    all_key = keys.add("read", "*")
    api = make_client(store, embedder, keys, key_file)

    own = api.gql(FACTS, {"s": member.space}, key=key)["data"]["semantics"]["edges"]
    assert {e["node"]["text"] for e in own} >= {"The office is in Lyon", "Lunch is at Chez Marie"}

    never_used = f"other{uuid.uuid4().hex[:8]}"
    refused = {}
    for space in (look_alike.space, never_used, team, f"{team}-"):
        body = api.gql(FACTS, {"s": space}, key=key)
        assert error_codes(body) == ["FORBIDDEN"] and body["data"] is None, space
        refused[space] = body["errors"][0]["message"].replace(space, "<space>")
    assert len(set(refused.values())) == 1, refused  # the same words for an existing and an unknown space

    # global ids: the team's node resolves, the look-alike's is null as if it did not exist
    member_ids = [e["node"]["id"] for e in own]
    other_ids = [
        e["node"]["id"] for e in api.gql(FACTS, {"s": look_alike.space}, key=all_key)["data"]["semantics"]["edges"]
    ]
    assert other_ids
    body = api.gql("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", {"ids": member_ids + other_ids}, key=key)
    assert body["data"]["nodes"] == [{"id": i} for i in member_ids] + [None] * len(other_ids)
