"""Prompts of the LLM structurer, kept apart from the code that sends them."""

from __future__ import annotations

import json
from collections.abc import Sequence

from graphmem.write.structurers.base import StepInput

STEPS_SYSTEM = (
    "You compile an agent's experience into memory. For every step of the trajectory, give: "
    "`subgoal` — the abstract intent the step serves, a short verb phrase independent of specifics "
    "(e.g. 'search for restaurants'); `reward` — a number in [0, 1] for how much the step advanced the goal, "
    "or null if unknown; `state` — one sentence on where the agent stands after the step; `facts` — the "
    "self-contained propositions the step's observation AND action establish, each with `tags`: 1-6 short "
    "keys (names, numbers with units, key nouns) copied verbatim from the text. Return JSON only, with one "
    "entry in `steps` per input step, in the same order, each with its `index`."
)

INSIGHT_SYSTEM = (
    "You distil reusable know-how from one segment of an agent's trajectory. Give `goal`: the abstract "
    "subgoal the segment achieves (a short verb phrase), and `insight`: 1-3 sentences on how to achieve it "
    "that would help in a different but similar situation. Return JSON only."
)


def steps_messages(goal: str, steps: Sequence[StepInput], first_index: int = 0) -> list[dict[str, str]]:
    payload = {
        "goal": goal,
        "steps": [
            {"index": first_index + i, "action": s.action, "observation": s.observation, "speaker": s.author}
            for i, s in enumerate(steps)
        ],
    }
    return [
        {"role": "system", "content": STEPS_SYSTEM},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]


def insight_messages(goal: str, subgoal: str, steps: Sequence[StepInput]) -> list[dict[str, str]]:
    payload = {
        "episode_goal": goal,
        "segment_subgoal": subgoal,
        "steps": [{"action": s.action, "observation": s.observation} for s in steps],
    }
    return [
        {"role": "system", "content": INSIGHT_SYSTEM},
        {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
    ]
