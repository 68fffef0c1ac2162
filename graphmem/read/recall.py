"""Recall, the read path's orchestrator, as a visible pipeline: plan -> legs -> (multi-hop rounds) -> fuse
and score -> rerank -> cut to k -> hit stages -> expand -> pack. Every leg is scoped in Cypher by space,
status and time; what runs, and with which settings, is one `RecallConfig` (`graphmem.read.pipeline`), named
by a recipe: `hybrid` (default), `vector`, `bm25`, `tagvote`, `plugmem`, or `<recipe>-no:<stage>`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TypeVar

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import InvalidInput
from graphmem.read.asof import AsOf
from graphmem.read.fusion import Fused, leg_weight
from graphmem.read.leg_run import LegRun
from graphmem.read.legs import lexical_leg, match_tags, subgoal_leg, tag_document_leg, tag_vote_leg, vector_leg
from graphmem.read.legs.base import KINDS, LegRanking
from graphmem.read.participants import participant_names, without_participants
from graphmem.read.pipeline import RecallConfig, recipe
from graphmem.read.pipeline.config import LEGS
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.fuse import score
from graphmem.read.pipeline.recipes import RECIPES, SOURCE_RECIPES
from graphmem.read.pipeline.stages import CUT_STAGE, EXPAND_STAGES, HIT_STAGES, PACK_STAGE, RERANK_STAGES
from graphmem.read.pipeline.stages.latest import reserve_latest
from graphmem.read.pipeline.stages.multihop import MultihopStage
from graphmem.read.planner import MODE_KINDS, DeterministicPlanner
from graphmem.read.question_dates import question_dates
from graphmem.read.results import Plan, RecallHit, RecallResult, SourceHit
from graphmem.read.sources import rank_sources
from graphmem.read.value_model import ValueWeights

T = TypeVar("T")
VARIANTS = RECIPES  # the recipe names; `variant` is the recipe's name wherever a caller picks one
SOURCE_VARIANTS = SOURCE_RECIPES
MAX_K = 1000
__all__ = ["LEGS", "VARIANTS", "RecallOptions", "recall", "recall_sources", "reserve_latest"]


@dataclass(frozen=True)
class RecallOptions:
    """Everything a recall can vary besides the question; None = the setting's default."""

    as_of: object = None
    known_at: object = None
    mode: str = "auto"
    k: int = 10
    variant: str = "hybrid"  # the recipe's name (see `graphmem.read.pipeline.recipes`)
    legs: Sequence[str] | None = None
    kinds: Sequence[str] | None = None
    tags: Sequence[str] | None = None
    subgoal: str | None = None
    value_weights: ValueWeights | None = None
    latest_slots: int | None = None
    token_budget: int | None = None
    char_budget: int | None = None
    expand: bool = True
    hops: int = 1
    related: bool = True
    config: RecallConfig | None = None  # a config of the caller's own, instead of the named recipe

    def resolve(self, settings: Settings) -> RecallConfig:
        """The config this recall runs: the caller's, else the recipe `variant` names."""
        return self.config if self.config is not None else recipe(self.variant, settings)


@lru_cache(maxsize=1)
def leg_pool() -> ThreadPoolExecutor:
    """One process-wide pool for running a question's legs side by side (the driver is thread-safe)."""
    return ThreadPoolExecutor(max_workers=8, thread_name_prefix="graphmem-leg")


def _check(text: str, space: str, k: int) -> None:
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text", "the question must be non-empty text")
    if not isinstance(space, str) or not space.strip():
        raise InvalidInput("space", "a space is required")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        raise InvalidInput("k", f"must be an integer from 1 to {MAX_K}")


def config_legs(config: RecallConfig, kinds: Sequence[str], legs: Sequence[str] | None) -> tuple[str, ...]:
    """The legs `config` ranks with for these kinds (explicit `legs` win where the config lets them)."""
    if legs is not None:
        unknown = [leg for leg in legs if leg not in LEGS]
        if unknown:
            raise InvalidInput("legs", f"unknown leg(s) {unknown}; expected some of {list(LEGS)}")
    chosen = tuple(legs) if legs is not None and config.legs.caller_may_choose else config.legs.use
    if "episodic" not in kinds:
        chosen = tuple(leg for leg in chosen if leg != "tagdocs")
    if "semantic" not in kinds:
        chosen = tuple(leg for leg in chosen if leg != "tagvote")
    if "procedural" not in kinds:
        chosen = tuple(leg for leg in chosen if leg != "subgoal")
    return chosen


def run_legs(
    store: Store,
    embedder: Embedder,
    settings: Settings,
    text: str,
    space: str,
    options: RecallOptions,
    config: RecallConfig,
    depth: int,
) -> LegRun:
    """Plan the question and run each of the config's legs once, `depth` candidates each."""
    dates = question_dates(text)
    # graphmem's own reading of the question: the baseline recipes stand for plain retrieval and skip it
    stated = options.as_of is None and config.plan.as_of_from_question and dates.as_of is not None
    scope = AsOf.resolve(dates.as_of if stated else options.as_of, options.known_at)
    search_text = text
    if not scope.current:
        search_text = dates.without_bound(text, scope.as_of, stated) or text
        dates = dates.bounded_by(scope.as_of)
    plan = DeterministicPlanner().plan(query=search_text, subgoal=options.subgoal, mode=options.mode)
    if options.tags is not None:
        plan = Plan(plan.query, [t for t in options.tags if t.strip()], plan.next_subgoal, plan.mode)
    kinds = tuple(options.kinds) if options.kinds else MODE_KINDS[plan.mode]
    bad = [kind for kind in kinds if kind not in KINDS]
    if bad:
        raise InvalidInput("kinds", f"unknown kind(s) {bad}; expected some of {list(KINDS)}")
    legs = config_legs(config, kinds, options.legs)
    leg_settings = config.legs
    timings: dict[str, float] = {}

    started = time.perf_counter()
    # graphmem's reading again: the dense query leaves out the names of the space's main participants
    if config.plan.participants:
        dense_query = without_participants(plan.query, participant_names(store, space, config.plan.participant_share))
        if dense_query != plan.query:
            plan = replace(plan, dense_query=dense_query)
    query_vector = embedder.embed([plan.dense_query or plan.query])[0]
    timings["embed"] = (time.perf_counter() - started) * 1000

    def timed(name: str, work: Callable[[], T]) -> Callable[[], T]:
        def run() -> T:
            since = time.perf_counter()
            try:
                return work()
            finally:
                timings[name] = (time.perf_counter() - since) * 1000

        return run

    # Independent legs run concurrently (each is its own read transaction); tag votes wait for the dense
    # leg because facts it found earn the dense bonus.
    pool = leg_pool()
    dense_future = (
        pool.submit(
            timed(
                "vector",
                lambda: vector_leg(
                    store,
                    space,
                    query_vector,
                    scope,
                    kinds if "vector" in legs else ("semantic",),
                    depth,
                    leg_settings.vector_overfetch,
                ),
            )
        )
        if "vector" in legs or "tagvote" in legs
        else None
    )
    lexical_future = (
        pool.submit(
            timed(
                "lexical",
                lambda: lexical_leg(
                    store, space, plan.query, query_vector, scope, kinds, depth, leg_settings.vector_overfetch
                ),
            )
        )
        if "lexical" in legs
        else None
    )
    match_future = (
        pool.submit(
            timed(
                "tag_match",
                lambda: match_tags(
                    store,
                    embedder,
                    space,
                    plan.tags,
                    min_cosine=leg_settings.tag_min_cosine,
                    exact_weight=leg_settings.tag_exact_weight,
                    fuzzy_weight=leg_settings.tag_fuzzy_weight,
                ),
            )
        )
        if "tagvote" in legs or "tagdocs" in legs
        else None
    )
    subgoal_future = None
    if "subgoal" in legs:
        subgoal_text = plan.next_subgoal or plan.query
        subgoal_vector = query_vector if subgoal_text == plan.query else embedder.embed([subgoal_text])[0]
        subgoal_future = pool.submit(
            timed("subgoal", lambda: subgoal_leg(store, space, subgoal_vector, scope, depth, leg_settings.subgoals))
        )

    rankings: list[LegRanking] = []
    matches = []
    dense = dense_future.result() if dense_future else None
    if dense is not None and "vector" in legs:
        rankings.append(dense)
    if lexical_future is not None:
        rankings.append(lexical_future.result())
    if match_future is not None:
        matches = match_future.result()
        dense_ids = [r.id for r in dense.rows if r.kind == "semantic"] if dense else []
        if leg_settings.dense_facts is not None:
            dense_ids = dense_ids[: leg_settings.dense_facts]
        tagdocs_future = (
            pool.submit(timed("tagdocs", lambda: tag_document_leg(store, space, query_vector, scope, matches, depth)))
            if "tagdocs" in legs and leg_weight(leg_settings.weights, "tagdocs") > 0
            else None
        )
        if "tagvote" in legs:
            rankings.append(
                timed(
                    "tagvote",
                    lambda: tag_vote_leg(
                        store,
                        space,
                        query_vector,
                        scope,
                        matches,
                        dense_ids,
                        depth,
                        leg_settings.tag_dense_bonus,
                        by_rarity=leg_settings.tag_by_rarity,
                    ),
                )()
            )
        if tagdocs_future is not None:
            rankings.append(tagdocs_future.result())
    if subgoal_future is not None:
        rankings.append(subgoal_future.result())
    if leg_settings.dense_facts is not None and dense is not None:
        dense.rows = [r for r in dense.rows if r.kind == "semantic"][: leg_settings.dense_facts]
    weights = dict(leg_settings.weights)
    as_of_from_question = stated and not scope.current
    return LegRun(rankings, plan, scope, kinds, legs, timings, weights, dates, as_of_from_question, matches)


def to_hit(f: Fused, latest: bool) -> RecallHit:
    """The hit a scored candidate becomes (`latest`: it holds a reserved latest slot)."""
    row = f.row
    return RecallHit(
        id=row.id,
        kind=row.kind,
        text=row.text,
        score=f.rrf,
        signals=dict(f.signals),
        event_at=row.event_at,
        author=row.author,
        status=row.status,
        valid_from=row.valid_from,
        valid_to=row.valid_to,
        episode_id=row.episode_id,
        value=dict(row.extra.get("value", {})),
        latest_slot=latest,
        seq=row.seq,
        unit_kind=row.unit_kind,
    )


def recall(
    store: Store,
    embedder: Embedder,
    settings: Settings,
    text: str,
    space: str,
    options: RecallOptions | None = None,
) -> RecallResult:
    """Ranked memory for `text` in `space`, as of `options.as_of` / `known_at`, with packed evidence."""
    options = options or RecallOptions()
    _check(text, space, options.k)
    config = options.resolve(settings)
    max_rounds = config.stages.multihop.max_rounds
    if not isinstance(options.hops, int) or not 1 <= options.hops <= max_rounds:
        raise InvalidInput("hops", f"must be an integer from 1 to {max_rounds}")
    for name in ("token_budget", "char_budget"):
        value = getattr(options, name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise InvalidInput(name, "must be a positive integer")
    depth = max(config.legs.candidates, options.k * 2)
    # plan -> legs
    run = run_legs(store, embedder, settings, text, space, options, config, depth)
    ctx = RecallContext(
        store=store,
        embedder=embedder,
        settings=settings,
        config=config,
        space=space,
        text=text,
        k=options.k,
        depth=depth,
        run=run,
        hops=options.hops,
        latest_slots=options.latest_slots,
        token_budget=options.token_budget,
        char_budget=options.char_budget,
        value_weights=options.value_weights,
    )
    timings = run.timings_ms
    # more legs: multi-hop rounds, ranked as the final ranking will be
    if options.hops > 1 and config.enabled("multihop"):
        t = time.perf_counter()
        MultihopStage(score).apply(ctx, run)
        timings[f"multihop_{ctx.multihop_rounds}_rounds"] = (time.perf_counter() - t) * 1000
    # fuse and score -> rerank -> cut to k -> hit stages
    t = time.perf_counter()
    ranked = score(ctx)
    for stage in RERANK_STAGES:
        if config.enabled(stage.name):
            ranked = stage.apply(ctx, ranked)
    top = CUT_STAGE.apply(ctx, ranked) if config.enabled(CUT_STAGE.name) else ranked[: options.k]
    hits = [to_hit(f, f.row.id in ctx.latest_ids) for f in top]
    for hit_stage in HIT_STAGES:
        if config.enabled(hit_stage.name):
            hits = hit_stage.apply(ctx, hits)
    timings["fuse"] = (time.perf_counter() - t) * 1000
    # expand: independent lookups over the chosen hits, side by side (each its own read transaction)
    t = time.perf_counter()
    wanted = {"related": options.related, "episodes": options.expand}
    expanding = [s for s in EXPAND_STAGES if config.enabled(s.name) and wanted.get(s.name, True)]
    pool = leg_pool()
    for future in [pool.submit(stage.apply, ctx, hits) for stage in expanding]:
        future.result()
    timings["expand_related"] = (time.perf_counter() - t) * 1000
    # pack
    t = time.perf_counter()
    if config.enabled(PACK_STAGE.name):
        PACK_STAGE.apply(ctx, hits)
    timings["pack"] = (time.perf_counter() - t) * 1000
    result = RecallResult(
        hits=hits,
        evidence="",
        evidence_tokens=0,
        episodes=ctx.episodes,
        plan=run.plan,
        variant=config.name,
        as_of=run.scope.as_of,
        known_at=run.scope.known_at,
        legs=run.legs,
        timings_ms=timings,
        related=ctx.related,
        contradictions=ctx.contradictions,
        as_of_from_question=run.as_of_from_question,
    )
    if ctx.pack is not None:
        pack = ctx.pack
        result.evidence, result.evidence_tokens = pack.text, pack.tokens
        result.evidence_items, result.evidence_chars, result.evidence_truncated = pack.items, pack.chars, pack.truncated
    return result


def recall_sources(
    store: Store,
    embedder: Embedder,
    settings: Settings,
    text: str,
    space: str,
    options: RecallOptions | None = None,
    depth: int | None = None,
) -> list[SourceHit]:
    """Sessions / trajectories / documents ranked from their episodic units (see `graphmem.read.sources`).

    Only the vector and lexical legs see episodic units; `variant` picks them ('vector', 'bm25' or both).
    """
    options = options or RecallOptions()
    _check(text, space, options.k)
    if options.variant not in SOURCE_VARIANTS:
        raise InvalidInput("variant", f"sources are ranked by {', '.join(SOURCE_VARIANTS)}, not {options.variant!r}")
    config = recipe("hybrid", settings)
    legs: tuple[str, ...] = {"vector": ("vector",), "bm25": ("lexical",)}.get(options.variant, ("vector", "lexical"))
    if options.legs is not None:
        legs = tuple(leg for leg in options.legs if leg in ("vector", "lexical"))
    leg_options = RecallOptions(
        as_of=options.as_of,
        known_at=options.known_at,
        mode="episodic",
        k=options.k,
        variant="hybrid",
        legs=legs,
        kinds=("episodic",),
    )
    run = run_legs(
        store,
        embedder,
        settings,
        text,
        space,
        leg_options,
        config,
        depth or max(config.legs.candidates * 2, options.k * 20),
    )
    weights = settings.read_source_leg_weights or config.legs.weights
    return rank_sources(store, space, run.rankings, weights, options.k, scope=run.scope, query=run.plan.query)
