"""One consolidation pass over a space: find candidate pairs, classify them, then — in ONE transaction —
supersede conflicts and merge restatements. Never deletes; a second pass over the same graph changes
nothing (consumed nodes are no longer active, merged ids are content-derived, edges are MERGEd).

Planning rules:
- conflict: the later-dated node (valid_from, then recorded_at) supersedes the earlier one at the later
  one's valid_from (kind `conflict`, by `consolidation:<classifier>`); pairs dated identically are skipped.
  Conflicts are applied oldest first so a chain A < B < C becomes C -> B -> A, never C -> A.
- restatement: pairs are grouped (union-find) and each group becomes one merged node of the same label;
  nodes that share a source episode are never grouped; a node superseded in this pass is not merged.
- unrelated: nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from neo4j import ManagedTransaction

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.errors import ConfigError
from graphmem.evolution.candidates import candidate_ids, load_pairs
from graphmem.evolution.credibility import corroborated
from graphmem.evolution.importance import refresh_importance
from graphmem.evolution.records import ConsolidationReport
from graphmem.evolution.supersede import KIND_CONFLICT, apply_supersessions
from graphmem.ids import content_id
from graphmem.pairs import CONFLICT, RESTATEMENT, CandidatePair, PairClassifier, RuleClassifier, Verdict
from graphmem.timeutil import FAR_FUTURE, utc_now

MERGED_PREFIX = {"Semantic": "fact", "Procedural": "proc"}


def make_classifier(settings: Settings) -> PairClassifier:
    """rules, or the LLM when configured (GRAPHMEM_CONSOLIDATE_CLASSIFIER=auto|rules|llm)."""
    from graphmem.llm import LLMClient, llm_configured

    choice = settings.consolidate_classifier
    if choice == "rules" or (choice == "auto" and not llm_configured(settings)):
        return RuleClassifier()
    if not llm_configured(settings):
        raise ConfigError("GRAPHMEM_CONSOLIDATE_CLASSIFIER=llm needs GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL")
    from graphmem.pairs.llm_classifier import LLMClassifier

    return LLMClassifier(LLMClient.from_settings(settings))


@dataclass
class ConsolidationPlan:
    """The writes one pass will make."""

    supersessions: list[dict[str, Any]] = field(default_factory=list)
    merges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # label -> groups


class _Groups:
    """Union-find over node ids that refuses to join groups holding a pair known to share an episode."""

    def __init__(self, apart: set[frozenset[str]]) -> None:
        self.parent: dict[str, str] = {}
        self.apart = apart

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def members(self, root: str) -> list[str]:
        return [x for x in self.parent if self.find(x) == root]

    def join(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        if any(frozenset((x, y)) in self.apart for x in self.members(ra) for y in self.members(rb)):
            return False
        self.parent[rb] = ra
        return True

    def groups(self) -> list[list[str]]:
        by_root: dict[str, list[str]] = {}
        for x in self.parent:
            by_root.setdefault(self.find(x), []).append(x)
        return [sorted(g) for g in by_root.values() if len(g) > 1]


def plan(
    space: str, pairs: list[CandidatePair], verdicts: list[Verdict], report: ConsolidationReport, by: str
) -> ConsolidationPlan:
    """Turn verdicts into writes (see the module docstring for the rules); counts go into `report`."""
    result = ConsolidationPlan()
    conflicts: list[tuple[CandidatePair, Verdict]] = []
    restatements: list[CandidatePair] = []
    for pair, verdict in zip(pairs, verdicts, strict=True):
        if verdict.label == CONFLICT:
            report.conflicts += 1
            conflicts.append((pair, verdict))
        elif verdict.label == RESTATEMENT:
            report.restatements += 1
            restatements.append(pair)
        else:
            report.unrelated += 1

    superseded: set[str] = set()
    ordered = []
    for pair, verdict in conflicts:
        by_time = pair.ordered_by_time()
        if by_time is None:
            report.skip("conflict_same_date")
            continue
        ordered.append((by_time[0], by_time[1], verdict))
    ordered.sort(key=lambda t: (t[1].valid_from, -t[0].valid_from.timestamp(), t[0].id, t[1].id))
    for earlier, later, verdict in ordered:
        if earlier.id in superseded:
            report.skip("already_superseded")
            continue
        superseded.add(earlier.id)
        result.supersessions.append(
            {
                "new_id": later.id,
                "old_id": earlier.id,
                "at": later.valid_from,
                "kind": KIND_CONFLICT,
                "reason": verdict.reason,
                "by": by,
            }
        )

    apart = {frozenset(p.key) for p in restatements if p.shares_episode}
    groups_by_label: dict[str, _Groups] = {}
    credibility: dict[str, float | None] = {}
    for pair in restatements:
        if pair.shares_episode:
            report.skip("shares_episode")
            continue
        if pair.a.id in superseded or pair.b.id in superseded:
            report.skip("superseded_in_run")
            continue
        groups = groups_by_label.setdefault(pair.label, _Groups(apart))
        if not groups.join(pair.a.id, pair.b.id):
            report.skip("shares_episode")
            continue
        credibility[pair.a.id], credibility[pair.b.id] = pair.a.credibility, pair.b.credibility
    for label, groups in groups_by_label.items():
        for members in groups.groups():
            result.merges.setdefault(label, []).append(
                {
                    "id": content_id(MERGED_PREFIX[label], space, "merged", *members),
                    "sources": members,
                    "credibility": corroborated(credibility[m] for m in members),
                }
            )
    return result


def _apply(store: Store, tx: ManagedTransaction, space: str, todo: ConsolidationPlan) -> tuple[int, int, int]:
    superseded = apply_supersessions(store, tx, space, todo.supersessions)
    merged_nodes = merged_sources = 0
    for label, merges in todo.merges.items():
        rows = store.run_in(
            tx, f"write/consolidate_merge_{label.lower()}", space=space, merges=merges, now=utc_now(), far=FAR_FUTURE
        )
        if rows:
            merged_nodes += int(rows[0]["merged_nodes"])
            merged_sources += int(rows[0]["sources"])
        refresh_importance(store, tx, space, ids=[merge["id"] for merge in merges])
    return superseded, merged_nodes, merged_sources


def consolidate(
    store: Store,
    space: str,
    settings: Settings,
    classifier: PairClassifier | None = None,
    *,
    dry_run: bool = False,
    progress: Callable[[str], None] | None = None,
) -> ConsolidationReport:
    """One pass; returns what it saw and did. With `dry_run` it classifies and plans but writes nothing.
    `progress` hears each stage as it starts (the CLI prints them on stderr)."""
    started = time.perf_counter()
    say = progress or (lambda stage: None)
    classifier = classifier or make_classifier(settings)
    report = ConsolidationReport(space=space, classifier=classifier.name, dry_run=dry_run)
    say("finding candidate pairs")
    ids = candidate_ids(
        store,
        space,
        max_pairs=settings.consolidate_max_pairs,
        max_nodes=settings.consolidate_max_nodes,
        neighbours=settings.consolidate_neighbours,
        min_cosine=settings.consolidate_min_similarity,
        max_tag_degree=settings.consolidate_max_tag_degree,
    )
    pairs = load_pairs(store, space, ids)
    report.pairs_seen = len(pairs)
    say(f"classifying {len(pairs)} pairs ({classifier.name})")
    verdicts = classifier.classify(pairs)
    todo = plan(space, pairs, verdicts, report, by=f"consolidation:{classifier.name}")
    say("writing supersessions and merges" if not dry_run else "planning (dry run)")
    if not dry_run and (todo.supersessions or todo.merges):
        report.superseded, report.merged_nodes, report.merged = store.write_transaction(
            lambda tx: _apply(store, tx, space, todo)
        )
    elif dry_run:
        report.superseded = len(todo.supersessions)
        report.merged_nodes = sum(len(m) for m in todo.merges.values())
        report.merged = sum(len(g["sources"]) for m in todo.merges.values() for g in m)
    usage = classifier.usage
    report.llm_calls, report.llm_failures = usage.calls, usage.failures
    report.llm_prompt_tokens, report.llm_completion_tokens = usage.prompt_tokens, usage.completion_tokens
    report.elapsed_ms = round((time.perf_counter() - started) * 1000.0, 1)
    return report
