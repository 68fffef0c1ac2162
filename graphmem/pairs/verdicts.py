"""The three consolidation labels and a classifier's answer for one pair."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from graphmem.llm.usage import LLMUsage
from graphmem.pairs.pair import CandidatePair

CONFLICT = "conflict"
RESTATEMENT = "restatement"
UNRELATED = "unrelated"
LABELS = (CONFLICT, RESTATEMENT, UNRELATED)


@dataclass(frozen=True)
class Verdict:
    """`label` is one of LABELS; `reason` is a short human explanation kept on the SUPERSEDES edge."""

    label: str
    reason: str


class PairClassifier(Protocol):
    """Labels candidate pairs; `usage` accumulates LLM tokens (zero for rules)."""

    name: str
    usage: LLMUsage

    def classify(self, pairs: list[CandidatePair]) -> list[Verdict]: ...
