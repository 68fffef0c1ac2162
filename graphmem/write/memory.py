"""`Memory`: the builder of one episode — a trajectory (goal, then action/observation steps) or a chat.

    memory = Memory("book a table", "home page", space="acme", session_id="s1")
    memory.append("search 'quiet restaurants'", "results page ...")
    memory.close(outcome=1.0)
    graph.insert(memory)

Every value is checked when it is given, and errors name the field (`steps[2].observation`, prefixed
by the record's place in a batch, e.g. `episodes[4].steps[2].observation`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.timeutil import parse_time
from graphmem.write.feedback import MAX_REWARD
from graphmem.write.validation import reject_unreadable

KIND_TRAJECTORY = "trajectory"
KIND_CHAT = "chat"
EPISODE_KINDS = (KIND_TRAJECTORY, KIND_CHAT)


@dataclass(frozen=True)
class Step:
    """One step (trajectory) or turn (chat). A turn's words are its `observation`; `author` its speaker."""

    action: str = ""
    observation: str = ""
    at: datetime | None = None
    author: str | None = None
    reward: float | None = None


def _text(where: str, value: Any, *, required: bool = False) -> str:
    if value is None:
        if required:
            raise InvalidInput(where, "is required")
        return ""
    if not isinstance(value, str):
        raise InvalidInput(where, f"must be text, got {type(value).__name__}")
    if required and not value.strip():
        raise InvalidInput(where, "must not be empty")
    return value.strip()


def _number(where: str, value: Any) -> float | None:
    """A reward or outcome: finite and within +-MAX_REWARD, as `record_outcome` takes (None stays None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput(where, "must be a finite number")
    if abs(value) > MAX_REWARD:
        raise InvalidInput(where, f"must be between {-MAX_REWARD:g} and {MAX_REWARD:g} (got {value:g})")
    return float(value)


class Memory:
    """One episode under construction; `close()` seals it (no more steps)."""

    def __init__(
        self,
        goal: str,
        observation: str = "",
        space: str = "default",
        session_id: str | None = None,
        started_at: datetime | str | None = None,
        *,
        kind: str = KIND_TRAJECTORY,
        outcome: float | None = None,
        id: str | None = None,
        source: str | None = None,
        where: str = "",
    ) -> None:
        self._where = where
        if kind not in EPISODE_KINDS:
            raise InvalidInput(self._field("kind"), f"must be one of {', '.join(EPISODE_KINDS)}")
        self.kind = kind
        self.goal = _text(self._field("goal"), goal, required=kind == KIND_TRAJECTORY)
        self.space = _text(self._field("space"), space, required=True)
        self.session_id = _text(self._field("session_id"), session_id) or None
        self.id = _text(self._field("id"), id) or None
        self.source = _text(self._field("source"), source) or None
        self.started_at = parse_time(self._field("started_at"), started_at) if started_at not in (None, "") else None
        self.outcome = _number(self._field("outcome"), outcome)
        self.ended_at: datetime | None = None
        self.steps: list[Step] = []
        self.closed = False
        first = _text(self._field("observation"), observation)
        # The opening observation is stored as a step of its own; appended steps are numbered after it
        # in the graph, but errors use the caller's numbering.
        self._offset = 1 if first else 0
        if first:
            self.steps.append(Step(observation=first, at=self.started_at))

    def _field(self, name: str) -> str:
        return f"{self._where}.{name}" if self._where else name

    def append(
        self,
        action: str,
        observation: str,
        at: datetime | str | None = None,
        *,
        author: str | None = None,
        reward: float | None = None,
    ) -> Memory:
        """Add a step; a step needs an action or an observation. Returns self for chaining."""
        where = self._field(f"steps[{len(self.steps) - self._offset}]")
        if self.closed:
            raise InvalidInput(where, "the episode is closed; start a new Memory")
        action_text = _text(f"{where}.action", action)
        observation_text = _text(f"{where}.observation", observation)
        if not action_text and not observation_text:
            raise InvalidInput(where, "a step needs an action or an observation")
        self.steps.append(
            Step(
                action=action_text,
                observation=observation_text,
                at=parse_time(f"{where}.at", at) if at not in (None, "") else None,
                author=_text(f"{where}.author", author) or None,
                reward=_number(f"{where}.reward", reward),
            )
        )
        return self

    def close(self, outcome: float | None = None, ended_at: datetime | str | None = None) -> Memory:
        """Seal the episode, optionally with its outcome (the return of its procedures when steps carry
        no rewards) and end time."""
        if outcome is not None:
            self.outcome = _number(self._field("outcome"), outcome)
        if ended_at not in (None, ""):
            self.ended_at = parse_time(self._field("ended_at"), ended_at)
        if not self.steps:
            raise InvalidInput(self._field("steps"), "an episode needs at least one step")
        self.closed = True
        return self

    def __len__(self) -> int:
        return len(self.steps)


def parse_episode(index: int, raw: Any, space: str) -> Memory:
    """A closed `Memory` from one JSONL episode record (INTERFACES.md); errors name `episodes[i].<field>`."""
    where = f"episodes[{index}]"
    reject_unreadable(raw, where)
    if not isinstance(raw, dict):
        raise InvalidInput(where, f"must be a JSON object, got {type(raw).__name__}")
    record_space = raw.get("space")
    if record_space not in (None, "") and record_space != space:
        raise InvalidInput(f"{where}.space", f"{record_space!r} differs from the target space {space!r}")
    memory = Memory(
        raw.get("goal"),  # type: ignore[arg-type]
        raw.get("observation") or "",
        space=space,
        session_id=raw.get("session_id"),
        started_at=raw.get("started_at"),
        kind=raw.get("kind") or KIND_TRAJECTORY,
        outcome=raw.get("outcome"),
        id=raw.get("id"),
        source=raw.get("source"),
        where=where,
    )
    steps = raw.get("steps")
    if not isinstance(steps, list) or not steps:
        raise InvalidInput(f"{where}.steps", "must be a non-empty list of steps")
    for j, step in enumerate(steps):
        step_where = f"{where}.steps[{j}]"
        if not isinstance(step, dict):
            raise InvalidInput(step_where, "must be a JSON object")
        observation = step.get("observation", step.get("text"))
        memory.append(
            step.get("action") or "",
            observation if observation is not None else "",
            step.get("at", step.get("time")),
            author=step.get("author", step.get("speaker")),
            reward=step.get("reward"),
        )
    return memory.close(ended_at=raw.get("ended_at"))
