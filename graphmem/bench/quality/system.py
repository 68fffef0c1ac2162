"""The one place the benchmark touches graphmem: ingest a scope into a space, rank a question, drop a space.

`RetrievalSystem` is what the runner needs; `GraphmemSystem` wires it to `MemoryGraph`'s write and read
paths. Dataset keys travel with the data (document ids, session ids, turn order) so rankings come back
as dataset keys without the graph's own ids ever mattering to scoring.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from graphmem.bench.quality.datasets.base import Question, Scope
from graphmem.bench.quality.scoring import Ranking
from graphmem.read.pipeline.recipes import ABLATION, is_recipe

# Every variant the harness knows besides ablations (`hybrid-no:<stage>`); `bench quality --variants` picks.
VARIANTS = ("vector", "bm25", "tagvote", "plugmem", "hybrid", "hybrid+asof", "reason")
# `reason` is PlugMem's reasoning step (`retrieve_and_reason`): its units are the items the guidance drew on,
# and it reports the guidance's memory tokens per question; `reason@N` gives it a budget of N tokens (default
# GRAPHMEM_READ_REASONING_TOKENS). Not a default: it measures compression, not ranking.
REASON_VARIANT = re.compile(r"^reason(?:@(\d+))?$")


ASOF_SUFFIX = "+asof"
# What `--ablate` switches off one at a time: the stages and plan switches that can move a ranked unit, then
# the legs (multi-hop needs hops > 1, contradictions and episodes do not change the ranked units).
ABLATIONS = (
    "value",
    "dates",
    "cover",
    "versions",
    "slot_pairs",
    "latest",
    "repeats",
    "related",
    "participants",
    "as_of_from_question",
    "vector",
    "lexical",
    "tagvote",
    "tagdocs",
    "subgoal",
)


def is_variant(name: str) -> bool:
    """A harness variant, a recipe, or a recipe with stages switched off (`hybrid-no:versions`,
    `hybrid+asof-no:cover`); the switched-off names are checked when the recipe is built."""
    if name in VARIANTS or REASON_VARIANT.match(name) is not None:
        return True
    return is_recipe(recipe_of(name)[0])


def recipe_of(name: str) -> tuple[str, bool]:
    """The recipe a variant ranks with, and whether it is given the question's as-of date."""
    base, _, off = name.partition(ABLATION)
    if base.endswith(ASOF_SUFFIX):
        base = base.removesuffix(ASOF_SUFFIX)
        return (f"{base}{ABLATION}{off}" if off else base), True
    return name, False


def ablation_variants(base: str = "hybrid") -> list[str]:
    """`base` and `base` with each of `ABLATIONS` switched off, one at a time."""
    return [base, *(f"{base}{ABLATION}{name}" for name in ABLATIONS)]


def reason_budget(name: str) -> int | None:
    """The token budget a `reason@N` variant names (None for plain `reason`)."""
    match = REASON_VARIANT.match(name)
    return int(match.group(1)) if match and match.group(1) else None


DEFAULT_VARIANTS = ("vector", "bm25", "tagvote", "plugmem", "hybrid")
# Where questions carry an explicit as-of date, graphmem's as-of read is measured beside the rest.
DATED_DEFAULT_VARIANTS = (*DEFAULT_VARIANTS, "hybrid+asof")


def default_variants(dataset: str) -> tuple[str, ...]:
    return DATED_DEFAULT_VARIANTS if dataset == "versioned" else DEFAULT_VARIANTS


@dataclass(frozen=True)
class Depth:
    """How deep to rank: units (turns / documents) and sessions."""

    units: int
    sessions: int = 0


class RetrievalSystem(Protocol):
    def ingest(self, space: str, scope: Scope) -> dict[str, Any]:
        """Write every unit of `scope` into the fresh `space`; returns a JSON-able summary."""
        ...

    def attach(self, space: str, scope: Scope) -> bool:
        """Use `space` as an earlier run left it (kept) for `scope`; False when it holds nothing."""
        ...

    def rank(self, space: str, question: Question, variant: str, depth: Depth) -> Ranking:
        """`question` answered by `variant`, as dataset keys, best first."""
        ...

    def drop(self, space: str) -> int:
        """Delete the space's nodes; returns how many."""
        ...
