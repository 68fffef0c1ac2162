"""Plan -> legs: read the question (its stated as-of date, its main participants), then run each of the
config's legs once, side by side, into one `LegRun` for fusion and the refine stages."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import InvalidInput
from graphmem.read.asof import AsOf
from graphmem.read.fusion import leg_weight
from graphmem.read.leg_run import LegRun
from graphmem.read.legs import lexical_leg, match_tags, subgoal_leg, tag_document_leg, tag_vote_leg, vector_leg
from graphmem.read.legs.base import KINDS, LegRanking
from graphmem.read.participants import participant_names, without_participants
from graphmem.read.pipeline.config import LEGS, RecallConfig
from graphmem.read.pipeline.options import RecallOptions
from graphmem.read.planner import MODE_KINDS, DeterministicPlanner
from graphmem.read.question_dates import question_dates
from graphmem.read.results import Plan

T = TypeVar("T")


@lru_cache(maxsize=1)
def leg_pool() -> ThreadPoolExecutor:
    """One process-wide pool for running a question's legs side by side (the driver is thread-safe)."""
    return ThreadPoolExecutor(max_workers=8, thread_name_prefix="graphmem-leg")


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
                    store,
                    space,
                    plan.query,
                    query_vector,
                    scope,
                    kinds,
                    depth,
                    leg_settings.vector_overfetch,
                    leg_settings.lexical_stats_cap,
                    leg_settings.lexical_profile_ttl,
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
    return LegRun(
        rankings,
        plan,
        scope,
        kinds,
        legs,
        timings,
        weights,
        dates,
        as_of_from_question,
        matches,
        query_vector=query_vector,
    )
