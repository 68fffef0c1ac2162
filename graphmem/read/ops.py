"""The read operations of `MemoryGraph` (a mixin; see graphmem/memory_graph.py). Each delegates to one
module of `graphmem.read`; names and result types are the read path's public contract."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import InvalidInput
from graphmem.llm import LLMClient, llm_configured
from graphmem.observability import MEMORY_METRICS
from graphmem.read.asof import AsOf
from graphmem.read.fusion import Fused
from graphmem.read.guidance_items import guidance_items
from graphmem.read.legs import match_tags, subgoal_leg, tag_vote_leg, vector_leg
from graphmem.read.planner import DeterministicPlanner, LLMPlanner
from graphmem.read.provenance import evidence_units as evidence_units_of
from graphmem.read.provenance import provenance as provenance_of
from graphmem.read.reasoning import check_budget, reason
from graphmem.read.recall import MAX_K, RecallOptions, leg_pool, recall, recall_sources, to_hit
from graphmem.read.results import (
    EvidenceUnit,
    LegSignal,
    Provenance,
    Reasoned,
    RecallHit,
    RecallResult,
    SourceHit,
    TagVoteResult,
)
from graphmem.read.value_model import ValueWeights, components, value_score


class ReadOps:
    store: Store
    embedder: Embedder
    settings: Settings

    def recall(
        self,
        text: str,
        space: str,
        *,
        as_of: object = None,
        known_at: object = None,
        mode: str = "auto",
        k: int = 10,
        variant: str = "hybrid",
        recipe: str | None = None,
        legs: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        value_weights: dict[str, float] | None = None,
        latest_slots: int | None = None,
        token_budget: int | None = None,
        char_budget: int | None = None,
        hops: int = 1,
        related: bool = True,
    ) -> RecallResult:
        """Ranked memory for `text` in `space` as of a date, with per-leg signals and packed evidence.

        `recipe` (alias `variant`: hybrid | vector | bm25 | tagvote | plugmem, or `<recipe>-no:<stage>` with
        one stage switched off) or `legs` pick the ranking, so benchmarks can compare them on the same data;
        `hops` > 1 enables multi-hop expansion (at most 3 rounds).
        Evidence is packed within `char_budget` characters (default GRAPHMEM_READ_EVIDENCE_CHARS) and, if
        given, `token_budget` tokens. `related` brings each top hit's related artefacts (same thread or
        subject) in after it, and flags contradictions between active artefacts of different authors.
        """
        options = RecallOptions(
            as_of=as_of,
            known_at=known_at,
            mode=mode,
            k=k,
            variant=recipe if recipe is not None else variant,
            legs=legs,
            kinds=kinds,
            tags=tags,
            value_weights=ValueWeights.from_mapping(value_weights) if value_weights is not None else None,
            latest_slots=latest_slots,
            token_budget=token_budget,
            char_budget=char_budget,
            hops=hops,
            related=related,
        )
        result = recall(self.store, self.embedder, self.settings, text, space, options)
        MEMORY_METRICS.observe_recall(
            result.evidence_tokens,
            sum(1 for hit in result.hits if hit.kind == "semantic"),
            sum(1 for hit in result.hits if hit.kind == "procedural"),
        )
        return result

    def recall_sources(
        self,
        text: str,
        space: str,
        *,
        as_of: object = None,
        known_at: object = None,
        k: int = 10,
        variant: str = "hybrid",
        depth: int | None = None,
    ) -> list[SourceHit]:
        """Sessions, trajectories and documents ranked by their units (turn vector + BM25, max per source)."""
        options = RecallOptions(as_of=as_of, known_at=known_at, k=k, variant=variant)
        return recall_sources(self.store, self.embedder, self.settings, text, space, options, depth)

    def tag_vote(
        self,
        text: str,
        space: str,
        *,
        tags: Sequence[str] | None = None,
        as_of: object = None,
        known_at: object = None,
        k: int = 10,
    ) -> TagVoteResult:
        """Facts ranked by tag votes alone, with the tag matches that voted (exact x5, fuzzy x1, each divided by
        ln(1 + the number of facts the tag keys), dense +2)."""
        _check_k(k)
        scope = AsOf.resolve(as_of, known_at)
        plan = DeterministicPlanner().plan(query=text)
        query_tags = list(tags) if tags is not None else plan.tags
        vector = self.embedder.embed([plan.query])[0]
        depth = max(self.settings.read_candidates, k * 2)
        # the dense leg and tag matching are independent: side by side, as in recall
        dense_future = leg_pool().submit(
            vector_leg, self.store, space, vector, scope, ("semantic",), depth, self.settings.read_vector_overfetch
        )
        matches = match_tags(
            self.store,
            self.embedder,
            space,
            query_tags,
            min_cosine=self.settings.read_tag_min_cosine,
            exact_weight=self.settings.read_tag_exact_weight,
            fuzzy_weight=self.settings.read_tag_fuzzy_weight,
        )
        votes = tag_vote_leg(
            self.store,
            space,
            vector,
            scope,
            matches,
            dense_future.result().ids(),
            k,
            self.settings.read_tag_dense_bonus,
        )
        facts = [
            to_hit(Fused(row=r, rrf=r.score, signals={"tagvote": LegSignal(rank, r.score)}), False)
            for rank, r in enumerate(votes.rows, start=1)
        ]
        for hit, row in zip(facts, votes.rows, strict=True):
            hit.value = {
                "votes": float(row.extra.get("votes", 0.0)),
                "dense_bonus": float(row.extra.get("bonus", 0.0)),
                "tag_count": float(row.extra.get("tag_count", 0)),
            }
        return TagVoteResult(query_tags=query_tags, matches=matches, facts=facts)

    def route_subgoal(
        self, subgoal: str, space: str, *, as_of: object = None, known_at: object = None, k: int = 5
    ) -> list[RecallHit]:
        """Procedures for `subgoal`: nearest Subgoal nodes -> HAS_PROCEDURE, ranked by the value model
        (relevance, return, recency, uses — and importance, credibility), not by cosine alone."""
        _check_k(k)
        if not isinstance(subgoal, str) or not subgoal.strip():
            raise InvalidInput("subgoal", "the subgoal must be non-empty text")
        scope = AsOf.resolve(as_of, known_at)
        vector = self.embedder.embed([subgoal.strip()])[0]
        depth = max(self.settings.read_candidates, k * 2)
        ranking = subgoal_leg(self.store, space, vector, scope, depth, self.settings.read_subgoals)
        weights = ValueWeights.for_space(self.settings, space)
        scored: list[Fused] = []
        for row in ranking.rows:
            parts = components(row, scope.as_of, self.settings.read_recency_half_life_days)
            row.extra["value"] = parts
            scored.append(Fused(row=row, rrf=value_score(parts, weights)))
        for rank, f in enumerate(ranking.rows, start=1):
            scored[rank - 1].signals["subgoal"] = LegSignal(rank=rank, score=f.score)
        scored.sort(key=lambda f: (-f.rrf, f.row.id))
        hits = [to_hit(f, False) for f in scored[:k]]
        MEMORY_METRICS.observe_routing(len(hits))
        return hits

    def provenance(self, node_id: str, space: str, *, as_of: object = None, known_at: object = None) -> Provenance:
        """A fact or procedure's evidence -> episode -> source chain and version lineage, as of a date."""
        return provenance_of(self.store, space, node_id, as_of, known_at)

    def evidence_units(
        self, node_ids: Sequence[str], space: str, *, as_of: object = None, known_at: object = None
    ) -> dict[str, list[EvidenceUnit]]:
        """The evidence units behind facts / procedures as they stood at `as_of` (never dated after it)."""
        return evidence_units_of(self.store, space, list(node_ids), as_of, known_at)

    def retrieve_and_reason(
        self,
        goal: str,
        space: str,
        *,
        subgoal: str | None = None,
        state: str | None = None,
        observation: str | None = None,
        as_of: object = None,
        known_at: object = None,
        mode: str = "auto",
        k: int = 10,
        token_budget: int | None = None,
    ) -> Reasoned:
        """PlugMem's call shape: recall for (goal, subgoal, state, observation), then compress the evidence
        into guidance of at most `token_budget` tokens (default GRAPHMEM_READ_REASONING_TOKENS; LLM when
        configured, extractive otherwise), with the memory tokens it costs and the items it drew on."""
        if not isinstance(goal, str) or not goal.strip():
            raise InvalidInput("goal", "the goal must be non-empty text")
        _check_k(k)
        budget = check_budget(token_budget, self.settings.read_reasoning_tokens)
        AsOf.resolve(as_of, known_at)  # refuse bad dates before the planner spends an LLM call
        planner = LLMPlanner(self._reasoning_llm) if self._reasoning_llm is not None else DeterministicPlanner()
        plan = planner.plan(goal=goal, subgoal=subgoal, state=state, observation=observation, mode=mode)
        result = recall(
            self.store,
            self.embedder,
            self.settings,
            plan.query,
            space,
            RecallOptions(
                as_of=as_of, known_at=known_at, mode=plan.mode, k=k, subgoal=plan.next_subgoal, tags=plan.tags
            ),
        )
        guidance = reason(
            self.embedder, self._reasoning_llm, plan.query, goal, subgoal, state, observation, result, budget
        )
        items = guidance_items(
            result,
            guidance.item_ids,
            lambda ids: evidence_units_of(self.store, space, ids, result.as_of, result.known_at),
        )
        return Reasoned(
            guidance=guidance.text,
            memory_tokens=guidance.tokens,
            used_llm=guidance.used_llm,
            recall=result,
            budget=budget,
            items=items,
        )

    @cached_property
    def _reasoning_llm(self) -> LLMClient | None:
        if not llm_configured(self.settings):
            return None
        return LLMClient.from_settings(self.settings, token_counter=self.embedder.count_tokens)


def _check_k(k: int) -> None:
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
        raise InvalidInput("k", f"must be an integer from 1 to {MAX_K}")
