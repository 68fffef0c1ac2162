"""Recall, the read path's orchestrator, as a visible pipeline: plan -> legs -> (multi-hop rounds) -> fuse
and score -> rerank -> cut to k -> hit stages -> expand -> pack. Every leg is scoped in Cypher by space,
status and time; what runs, and with which settings, is one `RecallConfig` (`graphmem.read.pipeline`), named
by a recipe: `hybrid` (default), `vector`, `bm25`, `tagvote`, `plugmem`, or `<recipe>-no:<stage>`.
"""

from __future__ import annotations

import time

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import InvalidInput
from graphmem.read.fusion import Fused
from graphmem.read.pipeline import recipe
from graphmem.read.pipeline.config import LEGS
from graphmem.read.pipeline.context import RecallContext
from graphmem.read.pipeline.fuse import score
from graphmem.read.pipeline.legs import leg_pool, run_legs
from graphmem.read.pipeline.options import RecallOptions
from graphmem.read.pipeline.recipes import RECIPES, SOURCE_RECIPES
from graphmem.read.pipeline.stages import CUT_STAGE, EXPAND_STAGES, HIT_STAGES, PACK_STAGE, RERANK_STAGES
from graphmem.read.pipeline.stages.latest import reserve_latest
from graphmem.read.pipeline.stages.multihop import MultihopStage
from graphmem.read.results import RecallHit, RecallResult, SourceHit
from graphmem.read.sources import rank_sources

VARIANTS = RECIPES  # the recipe names; `variant` is the recipe's name wherever a caller picks one
SOURCE_VARIANTS = SOURCE_RECIPES
MAX_K = 1000
__all__ = ["LEGS", "VARIANTS", "RecallOptions", "recall", "recall_sources", "reserve_latest"]


def _check(text: str, space: str, k: int) -> None:
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("text", "the question must be non-empty text")
    if not isinstance(space, str) or not space.strip():
        raise InvalidInput("space", "a space is required")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        raise InvalidInput("k", f"must be an integer from 1 to {MAX_K}")


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
    run = run_legs(store, embedder, text, space, options, config, depth)
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
        text,
        space,
        leg_options,
        config,
        depth or max(config.legs.candidates * 2, options.k * 20),
    )
    weights = settings.read_source_leg_weights or config.legs.weights
    return rank_sources(
        store,
        space,
        run.rankings,
        weights,
        options.k,
        scope=run.scope,
        query=run.plan.query,
        fusion=settings.read_source_fusion,
    )
