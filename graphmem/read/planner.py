"""The planner: (goal, subgoal, state, observation, query) -> query text, query tags, next subgoal, mode.

`DeterministicPlanner` needs no LLM: tags come from the write path's own extractor (so query and memory
tags share one normal form), the next subgoal is the given subgoal (else the goal), and the mode is the
caller's or 'auto' (every leg runs and fusion decides).
"""

from __future__ import annotations

import logging
from typing import Protocol

from pydantic import BaseModel, Field

from graphmem.errors import InvalidInput
from graphmem.llm import LLMClient, LLMError
from graphmem.read.results import Plan
from graphmem.text import extract_tags, normalize_tag, stopwords

log = logging.getLogger(__name__)

MODES = ("auto", "semantic", "procedural", "episodic", "hybrid")

# Which node kinds each mode searches.
MODE_KINDS: dict[str, tuple[str, ...]] = {
    "auto": ("semantic", "episodic", "procedural"),
    "hybrid": ("semantic", "episodic", "procedural"),
    "semantic": ("semantic",),
    "procedural": ("procedural",),
    "episodic": ("episodic",),
}


def parse_mode(value: str | None, field: str = "mode") -> str:
    """A mode name, tolerant of case, whitespace and markup ('## Semantic' -> 'semantic')."""
    raw = (value or "auto").strip().lower().lstrip("#*-: ").rstrip(".*: ")
    for mode in MODES:
        if raw == mode or raw.startswith(mode):
            return mode
    raise InvalidInput(field, f"{value!r} is not one of {', '.join(MODES)}")


def query_tags(text: str, max_tags: int = 8) -> list[str]:
    """The query's tags (the write path's extractor) plus the content words of its multi-word tags.

    Questions name things more loosely than memory does ("the CEO of Acme" vs tags "CEO", "Acme"), so
    each word of a phrase also gets its chance at an exact Tag match; duplicates by normal form are dropped.
    """
    stop = stopwords()
    out: list[str] = []
    seen: set[str] = set()
    for tag in extract_tags(text, max_tags=max_tags):
        words = tag.split()
        parts = [tag] + ([w for w in words if w.lower() not in stop and len(w) > 2] if len(words) > 1 else [])
        for part in parts:
            norm = normalize_tag(part)
            if norm and norm not in seen:
                seen.add(norm)
                out.append(part)
    return out


class Planner(Protocol):
    def plan(
        self,
        goal: str | None = None,
        subgoal: str | None = None,
        state: str | None = None,
        observation: str | None = None,
        query: str | None = None,
        mode: str | None = None,
    ) -> Plan: ...


class DeterministicPlanner:
    def __init__(self, max_tags: int = 8) -> None:
        self.max_tags = max_tags

    def plan(
        self,
        goal: str | None = None,
        subgoal: str | None = None,
        state: str | None = None,
        observation: str | None = None,
        query: str | None = None,
        mode: str | None = None,
    ) -> Plan:
        text = (query or "").strip() or " ".join(p.strip() for p in (goal, subgoal, observation) if p and p.strip())
        if not text:
            raise InvalidInput("query", "give a query, or at least one of goal, subgoal, observation")
        tag_source = " ".join(p for p in (text, state or "") if p)
        return Plan(
            query=text,
            tags=query_tags(tag_source, max_tags=self.max_tags),
            next_subgoal=(subgoal or goal or None),
            mode=parse_mode(mode),
        )


class PlanReply(BaseModel):
    """The LLM planner's answer (validated); `mode` is free text, parsed by `parse_mode`."""

    tags: list[str] = Field(default_factory=list, description="short keys: names, entities, attributes")
    next_subgoal: str | None = Field(None, description="the abstract intent of the agent's next step")
    mode: str = Field("auto", description="one of auto, semantic, procedural, episodic, hybrid")


class LLMPlanner:
    """Plans with an LLM (JSON schema, validated); the deterministic planner fills in whatever it cannot:
    an LLM failure, an empty tag list or a mode it cannot parse ('## Procedural' parses; 'dunno' -> auto)."""

    def __init__(self, client: LLMClient, fallback: DeterministicPlanner | None = None) -> None:
        self.client = client
        self.fallback = fallback or DeterministicPlanner()

    def plan(
        self,
        goal: str | None = None,
        subgoal: str | None = None,
        state: str | None = None,
        observation: str | None = None,
        query: str | None = None,
        mode: str | None = None,
    ) -> Plan:
        base = self.fallback.plan(goal, subgoal, state, observation, query, mode)
        context = "\n".join(
            f"{name}: {value}"
            for name, value in (
                ("goal", goal), ("subgoal", subgoal), ("state", state), ("observation", observation), ("query", query)
            )
            if value
        )  # fmt: skip
        messages = [
            {
                "role": "system",
                "content": "Plan a memory lookup for an agent. Give the query's tags (short verbatim keys), "
                "the next subgoal (abstract intent) and the mode: semantic (facts), procedural (how-to), "
                "episodic (raw experience), hybrid or auto. Answer in JSON.",
            },
            {"role": "user", "content": context},
        ]
        try:
            reply, _usage = self.client.complete_json(messages, PlanReply)
        except LLMError as exc:
            log.warning("LLM planner failed, using the deterministic plan: %s", exc)
            return base
        try:
            asked = parse_mode(mode)
            planned_mode = asked if asked != "auto" else parse_mode(reply.mode)
        except InvalidInput:
            planned_mode = base.mode
        tags = [t.strip() for t in reply.tags if t.strip()] or base.tags
        return Plan(base.query, tags, (reply.next_subgoal or "").strip() or base.next_subgoal, planned_mode)
