"""Reading JSON Lines input for commands: one record per non-blank line; unreadable lines become
`UnreadableRecord`s so the ingest rejects them by name instead of aborting the file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.write.validation import UnreadableRecord


def read_jsonl(path: str) -> list[Any]:
    """Records of FILE (`-` for stdin), in order; blank lines are ignored; no records at all is an error."""
    if path == "-":
        lines = sys.stdin.read().splitlines()
    else:
        file = Path(path)
        if not file.is_file():
            raise InvalidInput("FILE", f"{path!r} is not a readable file")
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise InvalidInput("FILE", f"{path!r} is not UTF-8 text ({exc.reason})") from None
    records: list[Any] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            records.append(UnreadableRecord(f"line {number} is not valid JSON ({exc.msg} at column {exc.colno})"))
    if not records:
        raise InvalidInput("FILE", f"{'stdin' if path == '-' else repr(path)} holds no records")
    return records
