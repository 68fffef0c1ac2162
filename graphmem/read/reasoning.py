"""Reasoning: compress packed evidence into short guidance for the agent's next step, within a token budget.

With an LLM configured (GRAPHMEM_LLM_*), the model writes the guidance (JSON-schema answer, validated);
without one — or when the LLM fails — the guidance is extractive: the evidence sentences most similar to
the question, kept in evidence order, each with its item's date/author prefix. Either way the guidance is
cut to the budget, counted with the embedder's local tokenizer, and names the evidence items it drew on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from graphmem.embed import Embedder
from graphmem.errors import InvalidInput
from graphmem.llm import LLMClient, LLMError
from graphmem.read.packing import evidence_blocks
from graphmem.read.results import RecallResult

log = logging.getLogger(__name__)

# The guidance budget a caller may ask for, in tokens of the embedder's tokenizer.
MIN_GUIDANCE_TOKENS = 16
MAX_GUIDANCE_TOKENS = 4000
ELLIPSIS = " …"

_PREFIX = re.compile(r"^\s*(\[[^\]]*\])\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")

# A sentence's score is its cosine to the query plus RANK_PRIOR / (1 + its item's rank in the evidence).
RANK_PRIOR = 0.1

Block = tuple[str, str, bool]  # (evidence item id, its text as packed, whether it is an earlier version)


class LLMGuidance(BaseModel):
    """The LLM's answer: guidance for the next step, grounded only in the evidence."""

    guidance: str = Field(description="concise guidance or facts for the next step, grounded in the evidence")


@dataclass(frozen=True)
class Guidance:
    """Guidance within the budget: its text, its tokens, whether an LLM wrote it, and the ids of the
    evidence items it drew on (the extractive sentences' items; every item the LLM was given)."""

    text: str
    tokens: int
    used_llm: bool
    item_ids: list[str]


def check_budget(budget: int | None, default: int) -> int:
    """A guidance budget in MIN..MAX_GUIDANCE_TOKENS (`default` when None); InvalidInput('token_budget') else."""
    if budget is None:
        return default
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise InvalidInput("token_budget", "must be an integer")
    if not MIN_GUIDANCE_TOKENS <= budget <= MAX_GUIDANCE_TOKENS:
        raise InvalidInput(
            "token_budget", f"must be between {MIN_GUIDANCE_TOKENS} and {MAX_GUIDANCE_TOKENS} (got {budget})"
        )
    return budget


def packed_blocks(result: RecallResult) -> list[Block]:
    """The recall's evidence split back into its items, as packed (the last one as cut, if it was)."""
    blocks = evidence_blocks(result.evidence_order(), result.episodes)[: result.evidence_items]
    earlier = {r.id for r in result.related if r.relation == "supersedes"}
    lines = result.evidence.split("\n") if result.evidence else []
    out: list[Block] = []
    position = 0
    for block_id, text in blocks:
        size = text.count("\n") + 1
        piece = "\n".join(lines[position : position + size])
        position += size
        if piece.strip():
            out.append((block_id, piece, block_id in earlier))
    return out


@dataclass(frozen=True)
class Sentence:
    """One sentence of packed evidence: its item, its line (sentences of one line share its prefix)."""

    item_id: str
    line: int
    head: str
    body: str

    @property
    def text(self) -> str:
        return f"{self.head} {self.body}" if self.head else self.body


def evidence_sentences(item_id: str, evidence: str, first_line: int = 0) -> list[Sentence]:
    """Sentences of packed evidence, each with its line's date/author prefix; lines numbered from `first_line`."""
    sentences: list[Sentence] = []
    for number, line in enumerate(evidence.splitlines(), start=first_line):
        match = _PREFIX.match(line)
        head = match.group(1) if match else ""
        body = line[match.end() :] if match else line.strip()
        for piece in _SENTENCE_END.split(body):
            piece = piece.strip()
            if piece:
                sentences.append(Sentence(item_id, number, head, piece))
    return sentences


def fit_tokens(text: str, embedder: Embedder, budget: int) -> str:
    """`text` if it fits `budget` tokens, else its longest word prefix that does (with an ellipsis)."""
    if embedder.count_tokens(text) <= budget:
        return text
    words = text.split(" ")
    lo, hi, best = 0, len(words), ""
    while lo < hi:
        mid = (lo + hi + 1) // 2
        piece = " ".join(words[:mid]).rstrip() + ELLIPSIS
        if embedder.count_tokens(piece) <= budget:
            best, lo = piece, mid
        else:
            hi = mid - 1
    return best


def extractive_guidance(query: str, blocks: Sequence[Block], embedder: Embedder, budget: int) -> tuple[str, list[str]]:
    """The evidence sentences that best answer `query` (cosine to it, plus a prior for their item's rank)
    within `budget` tokens, in evidence order (sentences of one line under its prefix once), and the ids of
    the items they came from. Earlier versions of a document come only after every current sentence; when
    no whole sentence fits, the best is cut."""
    sentences: list[Sentence] = []
    tiers: list[tuple[bool, float]] = []
    line = 0
    for rank, (block_id, text, earlier) in enumerate(blocks):
        found = evidence_sentences(block_id, text, line)
        line += text.count("\n") + 1
        sentences.extend(found)
        tiers.extend((earlier, RANK_PRIOR / (1 + rank)) for _ in found)
    if not sentences:
        return "", []
    vectors = embedder.embed([query, *[s.body for s in sentences]])
    q = vectors[0]
    scores = [sum(a * b for a, b in zip(q, v, strict=False)) + tiers[i][1] for i, v in enumerate(vectors[1:])]
    order = sorted(range(len(sentences)), key=lambda i: (tiers[i][0], -scores[i]))
    costs = [embedder.count_tokens(s.text) for s in sentences]
    chosen: list[int] = []
    used = 0
    for i in order:  # a sentence with its own prefix costs at least what it adds to the joined text
        if used + costs[i] <= budget:
            chosen.append(i)
            used += costs[i]
    while chosen and embedder.count_tokens(_join(sentences, chosen)) > budget:
        chosen.pop()  # a tokenizer that merges across lines: drop the least similar until it fits
    if not chosen:
        best = sentences[order[0]]
        cut = fit_tokens(best.text, embedder, budget)
        return (cut, [best.item_id]) if cut else ("", [])
    ids = list(dict.fromkeys(sentences[j].item_id for j in sorted(chosen)))
    return _join(sentences, chosen), ids


def _join(sentences: Sequence[Sentence], chosen: Sequence[int]) -> str:
    """Chosen sentences in evidence order, one line per evidence line, its prefix once."""
    lines: list[str] = []
    previous: Sentence | None = None
    for j in sorted(chosen):
        sentence = sentences[j]
        if previous is not None and previous.line == sentence.line:
            lines[-1] += " " + sentence.body
        else:
            lines.append(sentence.text)
        previous = sentence
    return "\n".join(lines)


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
    answer, _usage = client.complete_json(messages, LLMGuidance)
    return answer.guidance.strip()


def reason(
    embedder: Embedder,
    client: LLMClient | None,
    query: str,
    goal: str,
    subgoal: str | None,
    state: str | None,
    observation: str | None,
    result: RecallResult,
    budget: int,
) -> Guidance:
    """Guidance from `result`'s packed evidence within `budget` tokens. An LLM answer over the budget is cut
    to fit; an LLM failure falls back to the extractive guidance, logged."""
    blocks = packed_blocks(result)
    if client is not None and blocks:
        try:
            text = fit_tokens(
                llm_guidance(client, goal, subgoal, state, observation, result.evidence, budget), embedder, budget
            )
            if text:
                return Guidance(text, embedder.count_tokens(text), True, [block[0] for block in blocks])
        except LLMError as exc:
            log.warning("LLM reasoning failed, using extractive guidance: %s", exc)
    text, ids = extractive_guidance(query, blocks, embedder, budget)
    return Guidance(text, embedder.count_tokens(text) if text else 0, False, ids)
