"""Recall, the read path's orchestrator: plan -> legs -> weighted RRF -> value model -> latest-dated
slots -> episodic expansion -> evidence packing. Every leg is scoped in Cypher by space, status and time.

Variants run the same legs' building blocks on the same data, so benchmarks can compare them:
`hybrid` (default: every leg, fusion, value model, latest slots), `vector` (plain kNN over the same
units), `bm25` (full-text only), `tagvote` (tag votes alone) and `plugmem` (PlugMem's public ranking:
dense top-5 facts plus the tag-voted pool, ranked by cosine alone).
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
from graphmem.read.bridges import BridgeSettings, bridge_passages
from graphmem.read.contradictions import find_contradictions
from graphmem.read.coverage import covering_documents, named_subjects
from graphmem.read.expansion import expand_episodes
from graphmem.read.fusion import Fused, leg_weight, max_rrf, weighted_rrf
from graphmem.read.leg_run import LegRun
from graphmem.read.legs import lexical_leg, match_tags, subgoal_leg, tag_document_leg, tag_vote_leg, vector_leg
from graphmem.read.legs.base import KINDS, LegRanking
from graphmem.read.legs.tags import question_subjects
from graphmem.read.multihop import expand_rounds
from graphmem.read.packing import evidence_blocks, pack_evidence
from graphmem.read.participants import participant_names, without_participants
from graphmem.read.planner import MODE_KINDS, DeterministicPlanner
from graphmem.read.question_dates import question_dates
from graphmem.read.related import related_artefacts
from graphmem.read.repeats import fold_repeats
from graphmem.read.results import Plan, RecallHit, RecallResult, SourceHit
from graphmem.read.slots import SlotSettings, asks_about_state, choose_by_slot, question_terms, term_weights
from graphmem.read.sources import rank_sources
from graphmem.read.value_model import ValueWeights, components, value_score
from graphmem.read.versions import (
    UnitSubject,
    asks_for_state,
    prefer_newer_versions,
    question_subject_words,
    unit_subjects,
    version_candidates,
)

T = TypeVar("T")
LEGS = ("vector", "lexical", "tagvote", "tagdocs", "subgoal")
VARIANTS = ("hybrid", "vector", "bm25", "tagvote", "plugmem")
SOURCE_VARIANTS = ("hybrid", "vector", "bm25")
PLUGMEM_DENSE_K = 5
MAX_K = 1000


@dataclass(frozen=True)
class RecallOptions:
    """Everything a recall can vary besides the question; None = the setting's default."""

    as_of: object = None
    known_at: object = None
    mode: str = "auto"
    k: int = 10
    variant: str = "hybrid"
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


def variant_legs(variant: str, kinds: Sequence[str], legs: Sequence[str] | None) -> tuple[str, ...]:
    """The legs a variant ranks with (explicit `legs` win for 'hybrid'); legs no kind can use are dropped."""
    if variant not in VARIANTS:
        raise InvalidInput("variant", f"{variant!r} is not one of {', '.join(VARIANTS)}")
    if legs is not None:
        unknown = [leg for leg in legs if leg not in LEGS]
        if unknown:
            raise InvalidInput("legs", f"unknown leg(s) {unknown}; expected some of {list(LEGS)}")
    chosen: tuple[str, ...] = {
        "vector": ("vector",),
        "bm25": ("lexical",),
        "tagvote": ("tagvote",),
        "plugmem": ("vector", "tagvote"),
        "hybrid": tuple(legs) if legs is not None else LEGS,
    }[variant]
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
    depth: int,
) -> LegRun:
    """Plan the question and run each chosen leg once, `depth` candidates each."""
    dates = question_dates(text)
    # graphmem's own reading of the question: the single-leg variants stand for plain retrieval and skip it
    stated = (
        options.variant == "hybrid"
        and options.as_of is None
        and settings.read_as_of_from_question
        and dates.as_of is not None
    )
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
    legs = variant_legs(options.variant, kinds, options.legs)
    timings: dict[str, float] = {}

    started = time.perf_counter()
    # graphmem's reading again: the dense query leaves out the names of the space's main participants
    if options.variant == "hybrid":
        dense_query = without_participants(plan.query, participant_names(store, space, settings.read_participant_share))
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
                    settings.read_vector_overfetch,
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
                    store, space, plan.query, query_vector, scope, kinds, depth, settings.read_vector_overfetch
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
                    min_cosine=settings.read_tag_min_cosine,
                    exact_weight=settings.read_tag_exact_weight,
                    fuzzy_weight=settings.read_tag_fuzzy_weight,
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
            timed("subgoal", lambda: subgoal_leg(store, space, subgoal_vector, scope, depth, settings.read_subgoals))
        )

    rankings: list[LegRanking] = []
    covering: frozenset[str] = frozenset()
    dense = dense_future.result() if dense_future else None
    if dense is not None and "vector" in legs:
        rankings.append(dense)
    if lexical_future is not None:
        rankings.append(lexical_future.result())
    if match_future is not None:
        matches = match_future.result()
        dense_ids = [r.id for r in dense.rows if r.kind == "semantic"] if dense else []
        if options.variant == "plugmem":
            dense_ids = dense_ids[:PLUGMEM_DENSE_K]
        tagdocs_future = (
            pool.submit(timed("tagdocs", lambda: tag_document_leg(store, space, query_vector, scope, matches, depth)))
            if "tagdocs" in legs and leg_weight(settings.read_leg_weights, "tagdocs") > 0
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
                        settings.read_tag_dense_bonus,
                        by_rarity=options.variant != "plugmem",
                    ),
                )()
            )
        if tagdocs_future is not None:
            tag_documents = tagdocs_future.result()
            rankings.append(tag_documents)
            if options.variant == "hybrid" and settings.read_cover_bonus > 0:
                named = named_subjects(plan.query, question_subjects([m.query_tag for m in matches]).values())
                covering = covering_documents(tag_documents, named, settings.read_cover_max_documents)
    if subgoal_future is not None:
        rankings.append(subgoal_future.result())
    if options.variant == "plugmem" and dense is not None:
        dense.rows = [r for r in dense.rows if r.kind == "semantic"][:PLUGMEM_DENSE_K]
    weights = dict(settings.read_leg_weights)
    return LegRun(
        rankings,
        plan,
        scope,
        kinds,
        legs,
        timings,
        weights,
        dates,
        stated and not scope.current,
        covering,
        query_vector,
    )


def score_candidates(run: LegRun, settings: Settings, space: str, options: RecallOptions) -> list[Fused]:
    """Fused candidates, best first, with `rrf` replaced by the final score and value parts recorded."""
    fused = weighted_rrf(run.rankings, run.weights, settings.read_rrf_k)
    if options.variant == "plugmem":
        for f in fused:
            f.row.extra["value"] = {"relevance": f.row.similarity or 0.0}
            f.rrf = f.row.similarity if f.row.similarity is not None else -1.0
        return sorted(fused, key=lambda f: (-f.rrf, f.row.id))
    if options.variant in ("vector", "bm25", "tagvote"):
        weights = ValueWeights.zero()
    else:
        weights = options.value_weights or ValueWeights.for_space(settings, space)
    top = max_rrf(run.rankings, run.weights, settings.read_rrf_k)
    date_weight = settings.read_date_match_weight if options.variant == "hybrid" else 0.0
    for f in fused:
        parts = components(f.row, run.scope.as_of, settings.read_recency_half_life_days)
        rrf_norm = f.rrf / top
        parts["rrf"] = rrf_norm
        f.rrf = rrf_norm + value_score(parts, weights)
        if date_weight and run.dates.mentions:
            parts["date_match"] = run.dates.closeness(f.row.event_at)
            f.rrf += date_weight * parts["date_match"]
        if f.row.id in run.covering:
            parts["covers_names"] = 1.0
            f.rrf += settings.read_cover_bonus
        f.row.extra["value"] = parts
    return sorted(fused, key=lambda f: (-f.rrf, -(f.row.similarity or 0.0), f.row.id))


def reserve_latest(ranked: list[Fused], k: int, slots: int) -> tuple[list[Fused], set[str]]:
    """Top k with `slots` places kept for the latest-dated candidates not already in the top k - slots
    (Mem++). Slots are at most a third of k, so a short list stays mostly relevance-ranked, and they are
    filled from the fused top 3k only: a latest match must still be a match."""
    slots = min(slots, k // 3)
    if slots <= 0 or len(ranked) <= k - slots:
        return ranked[:k], set()
    head = ranked[: k - slots]
    rest = [f for f in ranked[k - slots : 3 * k] if f.row.event_at is not None]
    latest = sorted(rest, key=lambda f: f.row.event_at, reverse=True)[:slots]  # type: ignore[arg-type, return-value]
    chosen = {f.row.id for f in latest}
    filler = [f for f in ranked[k - slots :] if f.row.id not in chosen][: slots - len(latest)]
    tail = sorted(latest + filler, key=lambda f: -f.rrf)
    return head + tail, chosen


def _slot_stage(
    store: Store, settings: Settings, space: str, run: LegRun, ranked: list[Fused], subjects: dict[str, UnitSubject]
) -> list[Fused]:
    """Version choice by slot (`graphmem.read.slots`); `subjects` gains what it read of the window."""
    window = settings.read_slot_window
    missing = [f.row.id for f in ranked[:window] if f.row.id not in subjects]
    subjects.update(unit_subjects(store, space, missing))
    weights = term_weights(store, space, sorted(question_terms(run.plan.tags)), settings.read_slot_rarity_cap)
    texts = {
        f.row.id: f"{f.row.text or ''}\n{subjects[f.row.id].source_text}" if f.row.id in subjects else f.row.text or ""
        for f in ranked[:window]
    }
    state = not run.scope.current or asks_about_state(run.plan.query)
    return choose_by_slot(
        ranked,
        texts,
        weights,
        SlotSettings(settings.read_slot_weight, settings.read_slot_margin, window, settings.read_slot_saturation),
        state,
    )


def to_hit(f: Fused, latest: bool) -> RecallHit:
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
    if not isinstance(options.hops, int) or not 1 <= options.hops <= settings.read_multihop_rounds:
        raise InvalidInput("hops", f"must be an integer from 1 to {settings.read_multihop_rounds}")
    for name in ("token_budget", "char_budget"):
        value = getattr(options, name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise InvalidInput(name, "must be a positive integer")
    depth = max(settings.read_candidates, options.k * 2)
    run = run_legs(store, embedder, settings, text, space, options, depth)
    if options.hops > 1 and options.variant == "hybrid" and "semantic" in run.kinds:
        t = time.perf_counter()
        rounds = expand_rounds(
            store,
            embedder,
            settings,
            space,
            run,
            depth,
            options.k,
            min(options.hops, settings.read_multihop_rounds),
            lambda r: [f.row for f in score_candidates(r, settings, space, options)],
        )
        run.timings_ms[f"multihop_{rounds}_rounds"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    ranked = score_candidates(run, settings, space, options)
    subjects: dict[str, UnitSubject] = {}
    if options.variant == "hybrid" and settings.read_version_window > 1 and asks_for_state(text, run.scope):
        window = settings.read_version_window
        subjects = unit_subjects(store, space, version_candidates(ranked, window))
        ranked = prefer_newer_versions(
            ranked,
            subjects,
            window,
            settings.read_version_cosine,
            settings.read_version_margin,
            question_subject_words(run.plan.tags),
            settings.read_version_subject_cosine,
        )
    if options.variant == "hybrid" and settings.read_slot_weight > 0 and settings.read_slot_window > 0:
        ranked = _slot_stage(store, settings, space, run, ranked, subjects)
    bridges = BridgeSettings(
        settings.read_bridge_weight,
        settings.read_bridge_seeds,
        settings.read_bridge_window,
        settings.read_bridge_max_degree,
        settings.read_bridge_vote,
        settings.read_bridge_per_seed,
    )
    if options.variant == "hybrid" and bridges.on and run.query_vector is not None:
        ranked = bridge_passages(store, bridges, space, run, ranked, run.query_vector)
    slots = (
        0
        if options.variant != "hybrid"
        else (settings.read_latest_slots if options.latest_slots is None else options.latest_slots)
    )
    top, latest_ids = reserve_latest(ranked, options.k, slots)
    hits = fold_repeats(store, space, [to_hit(f, f.row.id in latest_ids) for f in top])
    run.timings_ms["fuse"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    # Three independent lookups over the chosen hits, side by side (each its own read transaction).
    pool = leg_pool()
    graph_aware = options.variant == "hybrid"
    episodes_future = pool.submit(
        lambda: expand_episodes(store, space, run.scope, hits, settings.read_expand_min_hits) if options.expand else []
    )
    related_future = pool.submit(
        lambda: related_artefacts(store, settings, space, run.scope, hits) if graph_aware and options.related else []
    )
    known_tags = {unit_id: s.tag_names for unit_id, s in subjects.items() if s.tag_names is not None}
    contradictions = (
        find_contradictions(store, space, hits, settings.read_contradiction_candidates, known_tags)
        if graph_aware
        else []
    )
    episodes, related = episodes_future.result(), related_future.result()
    result = RecallResult(
        hits=hits,
        evidence="",
        evidence_tokens=0,
        episodes=episodes,
        plan=run.plan,
        variant=options.variant,
        as_of=run.scope.as_of,
        known_at=run.scope.known_at,
        legs=run.legs,
        timings_ms=run.timings_ms,
        related=related,
        contradictions=contradictions,
        as_of_from_question=run.as_of_from_question,
    )
    run.timings_ms["expand_related"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    pack = pack_evidence(
        evidence_blocks(result.evidence_order(), episodes),
        embedder.count_tokens,
        max_chars=options.char_budget or settings.read_evidence_chars,
        max_tokens=options.token_budget or settings.read_evidence_tokens,
    )
    run.timings_ms["pack"] = (time.perf_counter() - t) * 1000
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
        depth or max(settings.read_candidates * 2, options.k * 20),
    )
    weights = settings.read_source_leg_weights or settings.read_leg_weights
    return rank_sources(store, space, run.rankings, weights, options.k, scope=run.scope, query=run.plan.query)
