"""The runnable examples of a Markdown page, and how a shown output is compared with a real one.

A fenced block is runnable when an HTML comment right before it says so (invisible when rendered):

- `<!-- doc-test: query [setup] [key=read|none] [status=NNN] -->` before a ```graphql block: run it (with the
  JSON after `variables:` on the lines that follow, if any) against the service; `setup` marks the writes
  other pages' examples read; `key` picks a read-only key or none at all.
- `<!-- doc-test: run -->` before a ```bash block: run its `graphmem ...` lines (and `NAME=$(date ...)`).
- `<!-- doc-test: expect -->` before a ```json block: the output of the query or command above it, compared
  by `mismatch`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
_MARKER = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
_VARIABLES = re.compile(r"\A\s*variables:\s*`(.*?)`", re.S)


@dataclass
class Block:
    page: str
    line: int
    lang: str
    text: str
    action: str | None = None  # query | run | expect | None (not run)
    options: dict[str, str] = field(default_factory=dict)
    variables: dict[str, Any] = field(default_factory=dict)
    index: int = 0  # its place among the page's fenced blocks

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(page: str) -> list[Block]:
    """Every fenced block of `page` (a path under the repository), in order, with its doc-test marker."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        block = Block(page, text.count("\n", 0, match.start()) + 1, match.group(1), match.group(2), index=len(found))
        marker = _MARKER.search(before)
        if marker:
            words = marker.group(1).split()
            block.action = words[0]
            block.options = dict(w.partition("=")[::2] for w in words[1:])
        after = _VARIABLES.match(text[match.end() :])
        if after:
            block.variables = json.loads(after.group(1))
        found.append(block)
    return found


def mismatch(shown: Any, actual: Any, path: str = "") -> str | None:
    """Where `actual` differs from the output a page shows, or None.

    Objects need the same keys; lists the same length, item by item; text, integers, booleans and null must
    be equal, except that text with `…` in it only fixes what is around the `…`; a number shown with a
    fraction (a score, a duration) only needs to be a number.
    """
    where = path or "the output"
    if isinstance(shown, dict):
        if not isinstance(actual, dict):
            return f"{where}: shown an object, got {actual!r:.200}"
        if set(shown) != set(actual):
            return f"{where}: shown keys {sorted(shown)}, got {sorted(actual)}"
        for key in shown:
            found = mismatch(shown[key], actual[key], f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(shown, list):
        if not isinstance(actual, list) or len(actual) != len(shown):
            return f"{where}: shown {len(shown)} items, got {actual!r:.600}"
        for i, (s, a) in enumerate(zip(shown, actual, strict=True)):
            found = mismatch(s, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if isinstance(shown, float):
        ok = isinstance(actual, int | float) and not isinstance(actual, bool)
        return None if ok else f"{where}: shown a number, got {actual!r}"
    if isinstance(shown, str) and "…" in shown and isinstance(actual, str):
        return None if fits(shown, actual) else f"{where}: shown {shown!r}, got {actual!r}"
    if shown != actual or type(shown) is not type(actual):
        return f"{where}: shown {shown!r}, got {actual!r}"
    return None


def fits(pattern: str, text: str) -> bool:
    """Whether `text` reads as `pattern`, each `…` standing for any text."""
    parts = pattern.split("…")
    if not text.startswith(parts[0]) or not text.endswith(parts[-1]):
        return False
    at = len(parts[0])
    for middle in parts[1:-1]:
        at = text.find(middle, at)
        if at < 0:
            return False
        at += len(middle)
    return at <= len(text) - len(parts[-1])
