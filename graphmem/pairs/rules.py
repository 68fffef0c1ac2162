"""The rule classifier: conflict, restatement or unrelated, without a generative model.

The rules, in order (documented in docs/design.md as well):

1. *Values* are the tokens that carry a fact's value: numbers (with decimals, %, dates written with digits),
   month names, and capitalised words after the first word (names, places, products).
   A *negation* is one of not / no / never / n't / without.
2. **restatement**: the same values and the same negation, and either near-identical embeddings
   (cosine >= `restatement_cosine`) or near-identical wording (word Jaccard >= `restatement_jaccard`).
3. **conflict**: the values (or the negation) differ, the texts start the same way (a common prefix of
   at least `subject_prefix` words: the same subject), they differ in exactly ONE place (one word span)
   and that span holds a value or a negation, the wording outside the values mostly agrees (Jaccard of the
   non-value words >= `conflict_template_jaccard`), and the pair shares a tag or is close in embedding
   space (cosine >= `conflict_cosine`). Not conflicts: "Alice likes tea" / "Bob likes tea" (the difference
   is the subject) and "The budget of P1 is 100" / "The budget of P2 is 200" (two places differ, so the
   first is probably part of the subject).
4. anything else: **unrelated**.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from graphmem.llm.usage import LLMUsage
from graphmem.pairs.pair import CandidatePair
from graphmem.pairs.verdicts import CONFLICT, RESTATEMENT, UNRELATED, Verdict
from graphmem.text import MONTH_NAMES

TOKEN_RE = re.compile(r"\d+(?:[.,:/\-]\d+)*%?|[A-Za-z][A-Za-z'\-]*")
# Lower-case "may" is far more often the verb than the month, so it is no value.
MONTHS = frozenset(MONTH_NAMES) - {"may"}
NEGATIONS = frozenset({"not", "no", "never", "without", "n't", "cannot"})
NOT_VALUES = frozenset({"i"})


def tokens(text: str) -> list[str]:
    """Words and numbers in order; "isn't" becomes "is" + "n't" so negation is its own token."""
    out: list[str] = []
    for tok in TOKEN_RE.findall(text):
        if tok.lower().endswith("n't") and len(tok) > 3:
            out.extend([tok[:-3], "n't"])
        else:
            out.append(tok)
    return out


def is_value(token: str, position: int) -> bool:
    lower = token.lower()
    if token[0].isdigit() or lower in MONTHS:
        return True
    return position > 0 and token[0].isupper() and lower not in NOT_VALUES


@dataclass(frozen=True)
class TextShape:
    words: tuple[str, ...]  # lower-cased, in order
    values: frozenset[str]
    template: frozenset[str]  # non-value, non-negation words
    negated: bool


def shape(text: str) -> TextShape:
    toks = tokens(text)
    words = tuple(t.lower() for t in toks)
    values = frozenset(t.lower() for i, t in enumerate(toks) if is_value(t, i))
    template = frozenset(w for w in words if w not in values and w not in NEGATIONS)
    return TextShape(words, values, template, any(w in NEGATIONS for w in words))


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0


def differing_regions(a: tuple[str, ...], b: tuple[str, ...]) -> list[tuple[int, int, int, int]]:
    """The spans where two word sequences differ, as (a_start, a_end, b_start, b_end)."""
    matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    return [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]


def common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass
class RuleClassifier:
    """Deterministic pair classification; thresholds are the documented defaults."""

    restatement_cosine: float = 0.92
    restatement_jaccard: float = 0.8
    conflict_cosine: float = 0.7
    conflict_template_jaccard: float = 0.6
    subject_prefix: int = 2
    name: str = "rules"

    def __post_init__(self) -> None:
        self.usage = LLMUsage()

    def classify(self, pairs: list[CandidatePair]) -> list[Verdict]:
        return [self.classify_one(pair) for pair in pairs]

    def classify_one(self, pair: CandidatePair) -> Verdict:
        a, b = shape(pair.a.text), shape(pair.b.text)
        cosine = pair.similarity if pair.similarity is not None else 0.0
        word_overlap = jaccard(set(a.words), set(b.words))
        if a.values == b.values and a.negated == b.negated:
            if cosine >= self.restatement_cosine or word_overlap >= self.restatement_jaccard:
                return Verdict(RESTATEMENT, f"same values, cosine {cosine:.2f}, word overlap {word_overlap:.2f}")
            return Verdict(UNRELATED, "same values but different wording")
        unrelated = Verdict(UNRELATED, "different subject or wording")
        # the cheap conditions of a conflict first: the word alignment (difflib) only for pairs that pass them
        close = pair.shared_tags > 0 or cosine >= self.conflict_cosine
        if common_prefix(a.words, b.words) < self.subject_prefix or not close:
            return unrelated
        if jaccard(a.template, b.template) < self.conflict_template_jaccard:
            return unrelated
        regions = differing_regions(a.words, b.words)
        changed = [w for i1, i2, j1, j2 in regions for w in (*a.words[i1:i2], *b.words[j1:j2])]
        if len(regions) == 1 and any(w in a.values | b.values or w in NEGATIONS for w in changed):
            what = sorted(a.values ^ b.values) or ["negation"]
            return Verdict(CONFLICT, f"same subject, different {', '.join(what[:4])}")
        return unrelated
