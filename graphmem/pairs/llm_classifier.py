"""The LLM classifier: one chat call per pair, answered as JSON that must fit `PairJudgement`.

Three labels, two flags that must agree with the label (a conflict is the same subject with a different
value; a restatement the same subject and value; unrelated is a different subject). An answer whose flags
contradict its label fails validation, so `LLMClient` re-asks; if it never fits, the pair is left alone
(unrelated) and counted as an LLM failure — nothing is invented.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from graphmem.llm import LLMClient, LLMError, LLMUsage
from graphmem.pairs.pair import CandidatePair
from graphmem.pairs.verdicts import CONFLICT, RESTATEMENT, UNRELATED, Verdict

DEFAULT_CONCURRENCY = 4
SYSTEM_PROMPT = (
    "You compare two statements from an organisation's memory. Decide whether they are about the same "
    "subject (the same entity and attribute) and, if so, whether they give the same value. Answer with JSON: "
    '{"label": "conflict" | "restatement" | "unrelated", "same_subject": bool, "same_value": bool, '
    '"reason": "one short sentence"}. conflict = same subject, different value; restatement = same subject, '
    "same value (a paraphrase); unrelated = different subjects."
)


class PairJudgement(BaseModel):
    """The LLM's answer for one pair; the flags must agree with the label."""

    label: Literal["conflict", "restatement", "unrelated"]
    same_subject: bool
    same_value: bool
    reason: str = Field(default="", max_length=500)

    @model_validator(mode="after")
    def _flags_agree(self) -> PairJudgement:
        expected = {
            CONFLICT: (True, False),
            RESTATEMENT: (True, True),
        }.get(self.label)
        if expected is not None and (self.same_subject, self.same_value) != expected:
            raise ValueError(f"label {self.label!r} needs same_subject={expected[0]} and same_value={expected[1]}")
        if self.label == UNRELATED and self.same_subject and not self.same_value:
            raise ValueError("same subject with a different value is a conflict, not unrelated")
        if self.label == UNRELATED and self.same_subject and self.same_value:
            raise ValueError("same subject and value is a restatement, not unrelated")
        return self


def pair_messages(pair: CandidatePair) -> list[dict[str, str]]:
    first, second = pair.a, pair.b
    user = (
        f"Statement A (from {first.valid_from.date().isoformat()}): {first.text}\n"
        f"Statement B (from {second.valid_from.date().isoformat()}): {second.text}"
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


class LLMClassifier:
    """Classifies pairs through an OpenAI-compatible endpoint; tokens add up in `usage`."""

    name = "llm"

    def __init__(self, client: LLMClient, concurrency: int = DEFAULT_CONCURRENCY) -> None:
        self.client = client
        self.concurrency = max(1, concurrency)
        self.usage = LLMUsage()

    def classify(self, pairs: list[CandidatePair]) -> list[Verdict]:
        """Pairs are independent, so up to `concurrency` requests are in flight; order is kept."""
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            answers = list(pool.map(self._ask, pairs))
        for _, usage in answers:
            self.usage.add(usage)
        return [verdict for verdict, _ in answers]

    def classify_one(self, pair: CandidatePair) -> Verdict:
        verdict, usage = self._ask(pair)
        self.usage.add(usage)
        return verdict

    def _ask(self, pair: CandidatePair) -> tuple[Verdict, LLMUsage]:
        try:
            judgement, usage = self.client.complete_json(pair_messages(pair), PairJudgement)
        except LLMError as exc:
            return Verdict(UNRELATED, "llm gave no valid answer"), exc.usage
        return Verdict(judgement.label, judgement.reason or f"llm: {judgement.label}"), usage
