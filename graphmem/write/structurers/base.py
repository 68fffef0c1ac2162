"""The structurer contract: what the write path asks of a step, a segment and a text.

A structurer turns raw experience into drafts (subgoal, reward, state and facts per step; one insight per
segment). Drafts carry no ids or embeddings; the episode compiler adds those. A structurer that cannot
answer for a step returns `StepStructure.empty()` for it and counts a failure in its usage: the step is
stored without derived knowledge, never with a placeholder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from graphmem.llm.usage import LLMUsage


@dataclass(frozen=True)
class StepInput:
    """One step as the structurer sees it."""

    action: str
    observation: str
    author: str | None = None
    reward: float | None = None


@dataclass(frozen=True)
class FactDraft:
    """A proposition and its tags (verbatim keys; normalised later)."""

    text: str
    tags: tuple[str, ...]


@dataclass
class StepStructure:
    subgoal: str | None = None
    reward: float | None = None
    state: str | None = None
    facts: list[FactDraft] = field(default_factory=list)

    @classmethod
    def empty(cls) -> StepStructure:
        return cls()


@dataclass(frozen=True)
class InsightDraft:
    """One procedural insight for a segment: an abstract goal and how to reach it."""

    goal: str
    text: str


class Structurer(Protocol):
    """Implemented by `RuleStructurer` (default, deterministic) and `LLMStructurer`."""

    name: str

    def structure_steps(self, goal: str, steps: Sequence[StepInput]) -> tuple[list[StepStructure], LLMUsage]:
        """One `StepStructure` per step, in order."""
        ...

    def insight(self, goal: str, subgoal: str, steps: Sequence[StepInput]) -> tuple[InsightDraft | None, LLMUsage]:
        """The insight of one segment, or None when none can be drawn (counted as a failure by LLMs)."""
        ...
