"""Named recall configs. `hybrid` is graphmem's own reading; `vector`, `bm25`, `tagvote` and `plugmem` are the
baselines benchmarks compare it with, run on the same legs and data. `<recipe>-no:<name>` is a recipe with one
stage, plan switch or leg switched off (an ablation)."""

from __future__ import annotations

from typing import Any

from graphmem.config import Settings
from graphmem.errors import InvalidInput
from graphmem.read.pipeline.config import RecallConfig, Stages, from_settings

RECIPES = ("hybrid", "vector", "bm25", "tagvote", "plugmem")
SOURCE_RECIPES = ("hybrid", "vector", "bm25")
PLUGMEM_DENSE_K = 5
ABLATION = "-no:"


def _plain(config: RecallConfig, name: str, legs: tuple[str, ...], *, value: bool) -> RecallConfig:
    """A baseline: the given legs, none of graphmem's own reading of the question or refine stages.

    With `value`, the value-model components are recorded at zero weight (the score stays the fused one)."""
    off = {name: config.stage(name).model_copy(update={"enabled": False}) for name in Stages.model_fields}
    keep = ("repeats", "episodes", "packing")
    stages = config.stages.model_copy(update={n: s for n, s in off.items() if n not in keep})
    if value:
        stages = stages.model_copy(
            update={
                "value": config.stages.value.model_copy(
                    update={
                        "weights": dict.fromkeys(
                            ("relevance", "recency", "importance", "return", "credibility", "uses"), 0.0
                        )
                    }
                )
            }
        )
    return config.model_copy(
        update={
            "name": name,
            "plan": config.plan.model_copy(update={"as_of_from_question": False, "participants": False}),
            "legs": config.legs.model_copy(update={"use": legs, "caller_may_choose": False}),
            "stages": stages,
        }
    )


# Built configs by recipe name and the values of the GRAPHMEM_READ_* settings they were built from: a recall
# resolves its config from the settings every time, and a changed setting (a new Settings object, or a field
# assigned in place) is a new key.
_READ_SETTINGS = tuple(name for name in Settings.model_fields if name.startswith("read_"))
_BUILT: dict[tuple[str, tuple[Any, ...]], RecallConfig] = {}
_MAX_BUILT = 64


_SCALARS = frozenset((str, int, float, bool, type(None)))


def _hashable(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, dict):
        return tuple(sorted((key, _hashable(item)) for key, item in value.items()))
    if isinstance(value, list | tuple | set | frozenset):
        return tuple(_hashable(item) for item in value)
    return value


def read_settings_key(settings: Settings) -> tuple[Any, ...]:
    """The values of every `read_*` setting, hashable: what `recipe` builds a config from."""
    values = vars(settings)
    return tuple(_hashable(values[name]) for name in _READ_SETTINGS)


def recipe(name: str, settings: Settings) -> RecallConfig:
    """The config called `name` (a recipe, or `<recipe>-no:<stage>[,<stage>...]`); `InvalidInput` otherwise.
    Built once per name and values of the `read_*` settings (configs are frozen, so callers may share one)."""
    key = (name, read_settings_key(settings))
    config = _BUILT.get(key)
    if config is None:
        if len(_BUILT) >= _MAX_BUILT:
            _BUILT.clear()
        config = _BUILT[key] = _build(name, settings)
    return config


def _build(name: str, settings: Settings) -> RecallConfig:
    base_name, _, off = name.partition(ABLATION)
    if base_name not in RECIPES or (ABLATION in name and not off):
        expected = ", ".join(RECIPES)
        raise InvalidInput("variant", f"{name!r} is not one of {expected} (or <recipe>{ABLATION}<stage>)")
    hybrid = from_settings(settings)
    config = {
        "hybrid": lambda: hybrid,
        "vector": lambda: _plain(hybrid, "vector", ("vector",), value=True),
        "bm25": lambda: _plain(hybrid, "bm25", ("lexical",), value=True),
        "tagvote": lambda: _plain(hybrid, "tagvote", ("tagvote",), value=True),
        "plugmem": lambda: _plugmem(hybrid),
    }[base_name]()
    for part in off.split(",") if off else ():
        config = config.without(part.strip())
    return config.model_copy(update={"name": name}) if off else config


def _plugmem(hybrid: RecallConfig) -> RecallConfig:
    """PlugMem's public ranking: dense top-5 facts plus the tag-voted pool (one vote per tag), by cosine alone."""
    config = _plain(hybrid, "plugmem", ("vector", "tagvote"), value=False)
    return config.model_copy(
        update={
            "legs": config.legs.model_copy(update={"tag_by_rarity": False, "dense_facts": PLUGMEM_DENSE_K}),
            "fusion": config.fusion.model_copy(update={"method": "cosine"}),
        }
    )


def is_recipe(name: str) -> bool:
    """True when `name` names a recipe or an ablation of one (stage names are checked when it is built)."""
    base_name, sep, off = name.partition(ABLATION)
    return base_name in RECIPES and (not sep or bool(off))
