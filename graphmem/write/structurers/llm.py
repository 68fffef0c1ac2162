"""`LLMStructurer`: subgoals, rewards, states, facts and insights from an OpenAI-compatible LLM.

Work is batched: one call structures up to `STEPS_PER_CALL` steps of an episode, one call per segment draws
its insight. Answers are validated with pydantic (`graphmem.llm.LLMClient`); when a call fails after its
retries, the steps it covered come back empty (stored without derived knowledge) and the failure is
counted in the returned usage — nothing made up is ever stored.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from pydantic import BaseModel, Field

from graphmem.llm import LLMClient, LLMError, LLMUsage
from graphmem.text import normalize_tag
from graphmem.write.structurers.base import FactDraft, InsightDraft, StepInput, StepStructure
from graphmem.write.structurers.prompts import insight_messages, steps_messages

STEPS_PER_CALL = 16
MAX_TAGS = 6
log = logging.getLogger(__name__)


class FactReply(BaseModel):
    text: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)


class StepReply(BaseModel):
    index: int = Field(ge=0)
    subgoal: str | None = None
    reward: float | None = Field(None, ge=-1.0, le=1.0)
    state: str | None = None
    facts: list[FactReply] = Field(default_factory=list)


class StepsReply(BaseModel):
    steps: list[StepReply]


class InsightReply(BaseModel):
    goal: str = Field(min_length=1)
    insight: str = Field(min_length=1)


def _clean(text: str | None) -> str | None:
    text = " ".join((text or "").split())
    return text or None


def _step_structure(reply: StepReply) -> StepStructure:
    facts = []
    for fact in reply.facts:
        text = _clean(fact.text)
        tags = [t.strip() for t in fact.tags if t.strip() and normalize_tag(t)][:MAX_TAGS]
        if text:
            facts.append(FactDraft(text=text, tags=tuple(dict.fromkeys(tags))))
    return StepStructure(subgoal=_clean(reply.subgoal), reward=reply.reward, state=_clean(reply.state), facts=facts)


class LLMStructurer:
    """Structuring by an LLM through `LLMClient`; see the module docstring for batching and failures."""

    name = "llm"

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    def structure_steps(self, goal: str, steps: Sequence[StepInput]) -> tuple[list[StepStructure], LLMUsage]:
        usage = LLMUsage()
        results = [StepStructure.empty() for _ in steps]
        for start in range(0, len(steps), STEPS_PER_CALL):
            chunk = steps[start : start + STEPS_PER_CALL]
            try:
                reply, spent = self.client.complete_json(steps_messages(goal, chunk, start), StepsReply)
            except LLMError as exc:
                usage.add(exc.usage)
                continue
            usage.add(spent)
            answered = {r.index: r for r in reply.steps if start <= r.index < start + len(chunk)}
            if len(answered) < len(chunk):
                usage.failures += 1  # steps the reply skipped stay without derived knowledge
                log.warning("LLM structured %d of %d steps", len(answered), len(chunk))
            for index, step_reply in answered.items():
                results[index] = _step_structure(step_reply)
        return results, usage

    def insight(self, goal: str, subgoal: str, steps: Sequence[StepInput]) -> tuple[InsightDraft | None, LLMUsage]:
        try:
            reply, usage = self.client.complete_json(insight_messages(goal, subgoal, steps), InsightReply)
        except LLMError as exc:
            return None, exc.usage
        goal_text, text = _clean(reply.goal), _clean(reply.insight)
        if not goal_text or not text:
            usage.failures += 1
            return None, usage
        return InsightDraft(goal=goal_text, text=text), usage
