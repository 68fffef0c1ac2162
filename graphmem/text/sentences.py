"""Sentence splitting for fact derivation: a regex splitter that respects common abbreviations.

A boundary is `.`, `!` or `?` (optionally followed by a closing quote or bracket) and whitespace before an
upper-case letter, digit or opening quote — or a line break. Abbreviations such as "Dr." and "e.g." and
single initials ("J. Smith") do not end a sentence. A text written without capitals ("the ward moved. it is
on level 2.") has no upper-case letter to start a sentence, so there a lower-case letter may start one too,
and a word with a dot inside ("u.s.", "a.m.") does not end one. Deterministic; no model.
"""

from __future__ import annotations

import re

_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "no",
        "fig",
        "approx",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
_BOUNDARY_RE = re.compile(r"(?<=[.!?])([\"'”’)\]]?)\s+(?=[\"'“‘(\[]?[A-Z0-9])|\s*\n+\s*")
_CASELESS_BOUNDARY_RE = re.compile(r"(?<=[.!?])([\"'”’)\]]?)\s+(?=[\"'“‘(\[]?\w)|\s*\n+\s*")
_LAST_WORD_RE = re.compile(r"([\w.]+)[.!?][\"'”’)\]]?$")


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, in order; empty pieces dropped."""
    pieces: list[str] = []
    start = 0
    caseless = not any(ch.isupper() for ch in text)
    for match in (_CASELESS_BOUNDARY_RE if caseless else _BOUNDARY_RE).finditer(text):
        end = match.end(1) if match.group(1) else match.start()
        candidate = text[start:end].strip()
        if "\n" not in match.group(0):
            last = _LAST_WORD_RE.search(candidate)
            word = last.group(1).lower() if last else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or (caseless and "." in word):
                continue  # "Dr. Smith", "J. Smith" (and "u.s. state" in a caseless text): not a boundary
        if candidate:
            pieces.append(candidate)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        pieces.append(tail)
    return pieces
