"""Reasoning: compress packed evidence into short guidance for the agent's next step.

With an LLM configured (GRAPHMEM_LLM_*), the model writes the guidance (JSON-schema answer, validated);
without one — or when the LLM fails — the guidance is extractive: the evidence sentences most similar to
the question, kept in evidence order, each with its item's date/author prefix, within the token budget.
Either way the memory tokens returned are counted with the embedder's local tokenizer.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from graphmem.embed import Embedder
from graphmem.llm import LLMClient, LLMError

log = logging.getLogger(__name__)

_PREFIX = re.compile(r"^\s*(\[[^\]]*\])\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


class Guidance(BaseModel):
    """The LLM's answer: guidance for the next step, grounded only in the evidence."""

    guidance: str = Field(description="concise guidance or facts for the next step, grounded in the evidence")


def evidence_sentences(evidence: str) -> list[str]:
    """Sentences of the packed evidence, each carrying its line's date/author prefix."""
    sentences: list[str] = []
    for line in evidence.splitlines():
        match = _PREFIX.match(line)
        head = match.group(1) if match else ""
        body = line[match.end() :] if match else line.strip()
        for piece in _SENTENCE_END.split(body):
            piece = piece.strip()
            if piece:
                sentences.append(f"{head} {piece}" if head else piece)
    return sentences


def extractive_guidance(query: str, evidence: str, embedder: Embedder, budget: int) -> str:
    """The most query-similar evidence sentences that fit `budget` tokens, in evidence order."""
    sentences = evidence_sentences(evidence)
    if not sentences:
        return ""
    vectors = embedder.embed([query, *[_PREFIX.sub("", s) for s in sentences]])
    q = vectors[0]
    scores = [sum(a * b for a, b in zip(q, v, strict=False)) for v in vectors[1:]]
    order = sorted(range(len(sentences)), key=lambda i: -scores[i])
    chosen: list[int] = []
    for i in order:
        candidate = "\n".join(sentences[j] for j in sorted([*chosen, i]))
        if embedder.count_tokens(candidate) <= budget:
            chosen.append(i)
    return "\n".join(sentences[j] for j in sorted(chosen))


def llm_guidance(
    client: LLMClient,
    goal: str,
    subgoal: str | None,
    state: str | None,
    observation: str | None,
    evidence: str,
    budget: int,
) -> str:
    """Guidance written by the LLM from the evidence alone. Raises LLMError when it cannot answer."""
    context = "\n".join(
        f"{name}: {value}"
        for name, value in (
            ("goal", goal),
            ("subgoal", subgoal),
            ("state", state),
            ("observation", observation),
        )
        if value
    )
    messages: Sequence[dict[str, str]] = [
        {
            "role": "system",
            "content": (
                "You compress an agent's retrieved memory into guidance for its next step. Use only the "
                f"evidence given; keep dates where they matter; at most {budget} tokens. Answer in JSON."
            ),
        },
        {"role": "user", "content": f"{context}\n\nEvidence (best first):\n{evidence}"},
    ]
    answer, _usage = client.complete_json(messages, Guidance)
    return answer.guidance.strip()


def reason(
    embedder: Embedder,
    client: LLMClient | None,
    query: str,
    goal: str,
    subgoal: str | None,
    state: str | None,
    observation: str | None,
    evidence: str,
    budget: int,
) -> tuple[str, bool]:
    """(guidance, used_llm). An LLM failure falls back to the extractive guidance, logged."""
    if client is not None and evidence:
        try:
            text = llm_guidance(client, goal, subgoal, state, observation, evidence, budget)
            if text:
                return text, True
        except LLMError as exc:
            log.warning("LLM reasoning failed, using extractive guidance: %s", exc)
    return extractive_guidance(query, evidence, embedder, budget), False
