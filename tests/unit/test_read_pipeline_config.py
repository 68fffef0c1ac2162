"""`RecallConfig` and its recipes: built from settings (same variables, same defaults), validated with errors
that name the field, and ablations that switch exactly one thing off."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.read.pipeline import RECIPES, STAGE_NAMES, RecallConfig, from_settings, is_recipe, recipe


def test_the_default_recipe_is_built_from_the_read_settings():
    settings = Settings(GRAPHMEM_READ_RRF_K=30, GRAPHMEM_READ_COVER_BONUS=0.2, GRAPHMEM_READ_LATEST_SLOTS=2)
    config = recipe("hybrid", settings)
    assert config == from_settings(settings)
    assert config.fusion.rrf_k == 30
    assert config.stages.cover.bonus == 0.2
    assert config.stages.latest.slots == 2
    assert config.legs.weights == settings.read_leg_weights


def test_a_setting_of_zero_switches_its_stage_off():
    settings = Settings(GRAPHMEM_READ_COVER_BONUS=0, GRAPHMEM_READ_DATE_MATCH_WEIGHT=0, GRAPHMEM_READ_VERSION_WINDOW=1)
    config = recipe("hybrid", settings)
    assert not config.enabled("cover") and not config.enabled("dates") and not config.enabled("versions")
    assert not recipe("hybrid", Settings()).enabled("slots")  # slot choice is off by default
    assert recipe("hybrid", Settings(GRAPHMEM_READ_SLOT_WEIGHT=0.2)).enabled("slots")


def test_baseline_recipes_run_their_own_legs_and_no_graph_stage():
    settings = Settings()
    for name in ("vector", "bm25", "tagvote", "plugmem"):
        config = recipe(name, settings)
        assert config.name == name
        assert not config.plan.participants and not config.plan.as_of_from_question
        for stage in ("dates", "cover", "versions", "slots", "latest", "multihop", "related", "contradictions"):
            assert not config.enabled(stage), (name, stage)
        assert config.enabled("repeats") and config.enabled("episodes") and config.enabled("packing")
    assert recipe("plugmem", settings).fusion.method == "cosine"
    assert recipe("plugmem", settings).legs.dense_facts == 5
    assert recipe("vector", settings).stages.value.weights == dict.fromkeys(
        ("relevance", "recency", "importance", "return", "credibility", "uses"), 0.0
    )


def test_an_ablation_switches_off_one_stage_and_keeps_the_rest():
    settings = Settings()
    hybrid = recipe("hybrid", settings)
    for stage in STAGE_NAMES:
        ablated = recipe(f"hybrid-no:{stage}", settings)
        assert ablated.name == f"hybrid-no:{stage}"
        assert not ablated.enabled(stage)
        assert [s for s in STAGE_NAMES if s != stage and ablated.enabled(s) != hybrid.enabled(s)] == []
    assert recipe("hybrid-no:tagdocs", settings).legs.use == ("vector", "lexical", "tagvote", "subgoal")
    assert not recipe("hybrid-no:participants", settings).plan.participants
    both = recipe("hybrid-no:cover,dates", settings)
    assert not both.enabled("cover") and not both.enabled("dates") and both.enabled("versions")


@pytest.mark.parametrize("name", ["hybrid-no:telepathy", "hybrid-no:", "hyper", "vector-no:cover,nope"])
def test_an_unknown_recipe_or_stage_is_invalid_input_naming_the_variant(name):
    with pytest.raises(InvalidInput) as raised:
        recipe(name, Settings())
    assert raised.value.field == "variant"


def test_a_bad_stage_name_in_a_config_names_the_field():
    with pytest.raises(InvalidInput) as raised:
        RecallConfig.parse({"stages": {"telepathy": {"enabled": True}}})
    assert raised.value.field == "stages.telepathy"
    with pytest.raises(InvalidInput) as raised:
        RecallConfig.parse({"stages": {"latest": {"slots": -1}}})
    assert raised.value.field == "stages.latest.slots"
    with pytest.raises(InvalidInput) as raised:
        RecallConfig.parse({"fusion": {"method": "borda"}})
    assert raised.value.field == "fusion.method"
    with pytest.raises(InvalidInput) as raised:
        recipe("hybrid", Settings()).stage("telepathy")
    assert raised.value.field == "stage"


def test_recipe_names():
    assert RECIPES == ("hybrid", "vector", "bm25", "tagvote", "plugmem")
    assert is_recipe("hybrid") and is_recipe("bm25-no:repeats")
    assert not is_recipe("hybrid-no:") and not is_recipe("reason") and not is_recipe("hybrid+asof")


def test_a_recipe_is_built_once_for_the_same_read_settings():
    settings = Settings(GRAPHMEM_READ_RRF_K=31)
    assert recipe("hybrid", settings) is recipe("hybrid", settings)
    assert recipe("hybrid", Settings(GRAPHMEM_READ_RRF_K=31)) is recipe("hybrid", settings)  # equal settings
    assert recipe("hybrid-no:versions", settings) is not recipe("hybrid", settings)
    assert not recipe("hybrid-no:versions", settings).enabled("versions")


def test_a_changed_read_setting_rebuilds_the_recipe():
    settings = Settings(GRAPHMEM_READ_RRF_K=31)
    assert recipe("hybrid", settings).fusion.rrf_k == 31
    assert recipe("hybrid", settings.model_copy(update={"read_rrf_k": 32})).fusion.rrf_k == 32  # another object
    settings.read_rrf_k = 33  # the same object, changed in place
    assert recipe("hybrid", settings).fusion.rrf_k == 33
    settings.read_leg_weights["lexical"] = 0.5  # a value inside a mapping, changed in place
    assert recipe("hybrid", settings).legs.weights["lexical"] == 0.5
    assert recipe("vector", settings).fusion.rrf_k == 33  # every recipe is built from the current settings
