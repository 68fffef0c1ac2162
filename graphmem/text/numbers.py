"""Numbers are identity: two keys that carry different numbers name different things, however close their
embeddings ("ward-7b" / "ward-4c", "2024-10-02" / "2024-01-12", "q3 budget" / "q4 budget")."""

from __future__ import annotations

import re
import unicodedata

_DIGITS_RE = re.compile(r"\d+")
_NUMBERED_RE = re.compile(r"[^\W_]*\d[^\W_]*")


def numbers_of(text: str) -> tuple[str, ...]:
    """The digit runs of `text` in order, as ASCII digits without leading zeros ("ward-07b, 2024" ->
    ("7", "2024")); any script's decimal digits count, and no run is converted to an int (no size limit)."""
    runs = ("".join(str(unicodedata.digit(c)) for c in run) for run in _DIGITS_RE.findall(text))
    return tuple(run.lstrip("0") or "0" for run in runs)


def same_numbers(a: str, b: str) -> bool:
    """True when `a` and `b` carry the same numbers in the same order (both none included)."""
    return numbers_of(a) == numbers_of(b)


def numbered_words(text: str) -> frozenset[str]:
    """The lower-cased letter-and-digit runs of `text` that hold a digit ("Ward-7B, 2024" -> {"7b", "2024"})."""
    return frozenset(_NUMBERED_RE.findall(text.lower()))
