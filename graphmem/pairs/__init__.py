"""Pair classifiers: is one statement a conflict with, a restatement of, or unrelated to another?

Shared by consolidation (`graphmem.evolution`) and the read path's contradiction flags, so neither imports
the other. `RuleClassifier` needs no model; `graphmem.pairs.llm_classifier.LLMClassifier` asks an LLM.
"""

from graphmem.pairs.pair import CandidatePair, PairSide
from graphmem.pairs.rules import RuleClassifier
from graphmem.pairs.verdicts import CONFLICT, LABELS, RESTATEMENT, UNRELATED, PairClassifier, Verdict

__all__ = [
    "CONFLICT",
    "LABELS",
    "RESTATEMENT",
    "UNRELATED",
    "CandidatePair",
    "PairClassifier",
    "PairSide",
    "RuleClassifier",
    "Verdict",
]
