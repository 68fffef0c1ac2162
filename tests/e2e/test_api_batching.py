"""No N+1: a nested request costs one Cypher query per edge kind, however many nodes the page holds."""

from __future__ import annotations

from pathlib import Path

from graphmem.embed.hashing import HashingEmbedder
from tests.support.api_graph import ApiKeys, make_client, seed_graph
from tests.support.evolution_fixtures import GraphBuilder, day

NESTED = """query($s: String!) { semantics(space: $s, first: 50) { edges { node {
  text tags { name } evidence { text episode { goal } } supersedes { node { text } } supersededBy { at }
} } } }"""


def test_nested_edges_are_loaded_one_query_per_batch(store, space: str, tmp_path: Path) -> None:
    embedder = HashingEmbedder(384)
    seed_graph(store, space, embedder)
    keys = ApiKeys()
    key = keys.add("read", space)
    api = make_client(store, embedder, keys, tmp_path / "keys.json")

    def queries_for_page() -> tuple[int, int]:
        before = store.queries_run
        body = api.gql(NESTED, {"s": space}, key=key)
        assert "errors" not in body, body
        return store.queries_run - before, len(body["data"]["semantics"]["edges"])

    cost_small, size_small = queries_for_page()
    g = GraphBuilder(store, space, embedder)
    for i in range(20):
        g.semantic(f"extra{i}", f"Extra fact {i}", valid_from=day("2024-03-01"), tags=(f"t{i}", "extra"),
                   evidence=("t3",))  # fmt: skip
    cost_large, size_large = queries_for_page()
    assert (size_small, size_large) == (2, 22)
    # 1 listing + tags + evidence + episode + lineage (supersedes and supersededBy share one loader)
    assert cost_small == cost_large == 5
