"""`bench quality --variants` and `--ablate`: recipes with stages switched off are variants like any other."""

from __future__ import annotations

import pytest

from graphmem.bench.quality.cli import parse_variants, with_ablations
from graphmem.bench.quality.system import ABLATIONS, is_variant, recipe_of
from graphmem.errors import InvalidInput


def test_an_ablation_is_a_variant_and_keeps_its_comma_separated_stages():
    assert parse_variants("hybrid,hybrid-no:versions,vector") == ["hybrid", "hybrid-no:versions", "vector"]
    assert parse_variants("hybrid-no:cover,dates,bm25") == ["hybrid-no:cover,dates", "bm25"]
    assert is_variant("hybrid+asof-no:versions") and is_variant("plugmem-no:repeats")


def test_an_unknown_stage_fails_before_anything_runs_naming_the_flag():
    with pytest.raises(InvalidInput) as raised:
        parse_variants("hybrid-no:telepathy")
    assert raised.value.field == "--variants" and "telepathy" in raised.value.message
    with pytest.raises(InvalidInput):
        parse_variants("hybrid-no:")


def test_the_as_of_variant_of_an_ablation_ranks_with_the_ablated_recipe_and_the_question_date():
    assert recipe_of("hybrid+asof-no:versions") == ("hybrid-no:versions", True)
    assert recipe_of("hybrid+asof") == ("hybrid", True)
    assert recipe_of("hybrid-no:latest") == ("hybrid-no:latest", False)


def test_ablate_adds_each_switch_once_after_the_chosen_variants():
    variants = with_ablations(["vector", "hybrid"], "hotpotqa")
    assert variants[:2] == ["vector", "hybrid"]
    assert variants[2:] == [f"hybrid-no:{name}" for name in ABLATIONS]
    dated = with_ablations(["hybrid"], "versioned")
    assert "hybrid+asof" in dated and "hybrid+asof-no:versions" in dated
