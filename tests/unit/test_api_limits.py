"""Hostile input refused at the edge, without a database: query cost, metadata bounds, dates, rewards."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from graphql import parse

from graphmem import client
from graphmem.api.limits import query_cost
from graphmem.api.schema import schema
from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.jsonvalue import METADATA_MAX_DEPTH
from graphmem.timeutil import parse_time
from graphmem.write.feedback import record_outcome
from graphmem.write.memory import parse_episode
from graphmem.write.validation import optional_metadata

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = Settings()
# Within the depth (12), token and alias limits; took 42 s of CPU and returned 25 MB on ~150 nodes.
BREADTH = (
    '{ recall(space: "s", query: "q") { hits { node { ... on Semantic { tags { facts { tags { facts { tags '
    "{ facts { tags { facts { text } } } } } } } } } } } } }"
)


def cost(document: str, variables: dict | None = None) -> int:
    return query_cost(schema._schema, parse(document).definitions, None, variables or {}, DEFAULTS.api_max_first)


def documented_queries() -> list[str]:
    found = []
    for path in (ROOT / "README.md", ROOT / "docs" / "graphql.md", ROOT / "docs" / "tutorial.md"):
        found += re.findall(r"```graphql\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    found += [client.RECALL, client.PROVENANCE, client.HISTORY, client.INGEST_DOCUMENTS, client.SUPERSEDE]
    return found


def test_the_breadth_attack_is_priced_over_the_limit_in_milliseconds() -> None:
    started = time.perf_counter()
    assert cost(BREADTH) > DEFAULTS.api_max_cost * 100
    assert time.perf_counter() - started < 0.1


@pytest.mark.parametrize("document", documented_queries())
def test_documented_queries_stay_within_the_cost_limit_even_at_the_largest_page(document: str) -> None:
    assert cost(document, {"first": DEFAULTS.api_max_first}) <= DEFAULTS.api_max_cost


def test_a_first_sizes_the_list_below_a_connection_and_unpaged_lists_count_ten() -> None:
    page = 'query($n: Int) { semantics(space: "s", first: $n) { pageInfo { hasNextPage } edges { node { text } } } }'
    assert cost(page, {"n": 5}) == 1 + (1 + 1) + 5 * (1 + 1 + 1)
    assert cost(page) == 1 + 2 + 20 * 3  # default first: 20
    tags = '{ semantics(space: "s", first: 2) { edges { node { tags { name } } } } }'
    assert cost(tags) == 1 + 2 * (1 + 1 + 10 * (1 + 1))
    recall = '{ recall(space: "s", query: "q") { evidence hits { text } } }'
    assert cost(recall) == 1 + 1 + 10 * (1 + 1)  # recall's own default first is 10


def test_fragments_are_priced_like_inline_selections_and_cycles_end() -> None:
    inline = '{ semantics(space: "s") { edges { node { tags { facts(first: 3) { text } } } } } }'
    spread = (
        '{ semantics(space: "s") { edges { node { ...F } } } } '
        "fragment F on Semantic { tags { facts(first: 3) { text } } }"
    )
    assert cost(inline) == cost(spread)
    cyclic = '{ semantics(space: "s") { edges { node { ...A } } } } fragment A on Semantic { text ...A }'
    assert cost(cyclic) > 0


def test_metadata_is_bounded_in_depth_and_size_by_field_name() -> None:
    deep: dict = {}
    for _ in range(960):
        deep = {"a": deep}
    with pytest.raises(InvalidInput) as refused:
        optional_metadata({"metadata": deep}, "documents[3]")
    assert refused.value.field == "documents[3].metadata" and "levels" in refused.value.message
    with pytest.raises(InvalidInput) as large:
        optional_metadata({"metadata": {"x": "y" * 70_000}}, "documents[0]")
    assert large.value.field == "documents[0].metadata" and "bytes" in large.value.message
    with pytest.raises(InvalidInput) as nan:
        optional_metadata({"metadata": {"x": float("nan")}}, "documents[0]")
    assert nan.value.field == "documents[0].metadata"
    fine: dict = {"leaf": [1, "two", None]}
    for _ in range(METADATA_MAX_DEPTH - 2):
        fine = {"a": fine}
    assert json.loads(optional_metadata({"metadata": fine}, "documents[0]") or "") == fine
    assert optional_metadata({"metadata": {}}, "documents[0]") is None


@pytest.mark.parametrize(
    "value",
    ["9999-12-31T00:00:00Z", "9999-12-31T23:59:59.999999Z", "0000-06-01T00:00:00Z", "0001-01-01T00:00:00+01:00"],
)
def test_dates_outside_the_storable_range_are_refused_by_name(value: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_time("documents[0].event_at", value)
    assert refused.value.field == "documents[0].event_at"


def test_dates_just_inside_the_range_are_kept() -> None:
    assert parse_time("at", "9999-12-30T23:59:59Z").year == 9999
    assert parse_time("at", "0001-01-01T00:00:00Z").year == 1


@pytest.mark.parametrize("reward", [1.7e308, -1.7e308, 1e6 + 1, float("inf"), float("nan")])
def test_rewards_outside_the_documented_range_are_refused_before_the_store(reward: float) -> None:
    with pytest.raises(InvalidInput) as refused:
        record_outcome(None, "s", "p1", reward)  # type: ignore[arg-type]
    assert refused.value.field == "reward"


@pytest.mark.parametrize(
    ("episode", "field"),
    [
        ({"goal": "g", "outcome": 1.7e308, "steps": [{"action": "a", "observation": "o"}]}, "episodes[0].outcome"),
        ({"goal": "g", "steps": [{"action": "a", "observation": "o", "reward": float("inf")}]},
         "episodes[0].steps[0].reward"),
        ({"goal": "g", "steps": [{"action": "a", "observation": "o", "reward": -2e6}]}, "episodes[0].steps[0].reward"),
    ],
)  # fmt: skip
def test_episode_rewards_and_outcomes_take_the_same_range_as_record_outcome(episode: dict, field: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_episode(0, episode, "s")
    assert refused.value.field == field
