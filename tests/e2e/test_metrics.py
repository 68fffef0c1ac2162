"""/metrics exposes the memory metrics operators chart, and their values move when the service is used."""

from __future__ import annotations

import re
from pathlib import Path

from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiKeys, make_client

MEMORY_METRIC_NAMES = (
    "memory_compile_tokens_per_episode",
    "memory_compile_latency_ms",
    "semantic_nodes_created_per_episode",
    "procedural_nodes_created_per_episode",
    "retrieved_memory_tokens",
    "semantic_hit_rate",
    "procedural_hit_rate",
    "soft_deactivation_rate",
    "merge_accept_rate",
)

INGEST_EPISODE = """
mutation($input: IngestEpisodeInput!) { ingestEpisode(input: $input) { userErrors { message } } }
"""
RECALL = 'query($s: String!) { recall(space: $s, query: "how to reset the router") { evidenceTokens } }'


def _value(metrics: str, sample: str) -> float:
    match = re.search(rf"^{re.escape(sample)} (\S+)$", metrics, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_metrics_names_are_exposed_and_move_with_use(store, space: str, tmp_path: Path) -> None:
    keys = ApiKeys()
    key = keys.add("read,write", space)
    api = make_client(store, HashingEmbedder(384), keys, tmp_path / "keys.json")
    before = api.http.get("/metrics").text
    for name in MEMORY_METRIC_NAMES:
        assert f"# TYPE {name} " in before, name
    assert "# TYPE graphmem_graphql_root_latency_ms histogram" in before

    episode = {
        "space": space,
        "goal": "reset the office router",
        "outcome": 1.0,
        "steps": [
            {"action": "open the router admin page", "observation": "The admin page asks for the password."},
            {"action": "log in with the admin password", "observation": "The dashboard shows firmware 2.1."},
            {"action": "press reboot", "observation": "The router restarts and the internet works again."},
        ],
    }
    assert api.gql(INGEST_EPISODE, {"input": episode}, key=key)["data"]["ingestEpisode"]["userErrors"] == []
    assert api.gql(RECALL, {"s": space}, key=key)["data"]["recall"]["evidenceTokens"] > 0
    after = api.http.get("/metrics").text

    assert _value(after, "semantic_nodes_created_per_episode_count") > _value(
        before, "semantic_nodes_created_per_episode_count"
    )
    assert _value(after, "memory_compile_latency_ms_count") > _value(before, "memory_compile_latency_ms_count")
    assert _value(after, "retrieved_memory_tokens_sum") > _value(before, "retrieved_memory_tokens_sum")
    assert _value(after, 'graphmem_graphql_root_latency_ms_count{root="recall"}') >= 1
    assert _value(after, "semantic_hit_rate") > 0
