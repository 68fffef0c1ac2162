"""Chat sessions (the LongMemEval / LoCoMo shape) as episodes of kind `chat`, one `Episodic` turn each.

A turn is a mapping with the speaker (`speaker`, `role` or `author`), the words (`text` or `content`)
and optionally its own time (`time`, `at` or `date`); a turn without a time takes the session date. Turns
keep their order (`seq`). No LLM is involved: facts are derived per turn by the rule structurer when
GRAPHMEM_DERIVE_CHAT_FACTS is on, each prefixed by its speaker; chats get no subgoals or procedures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.write.memory import KIND_CHAT, Memory

SPEAKER_KEYS = ("speaker", "role", "author")
TEXT_KEYS = ("text", "content")
TIME_KEYS = ("time", "at", "date")


def _first(turn: Mapping[str, Any], keys: Sequence[str]) -> Any:
    return next((turn[k] for k in keys if turn.get(k) not in (None, "")), None)


def chat_session(
    space: str,
    turns: Sequence[Mapping[str, Any]],
    *,
    session_id: str | None = None,
    session_date: datetime | str | None = None,
    goal: str = "",
    id: str | None = None,
    source: str | None = None,
    where: str = "",
) -> Memory:
    """A closed chat `Memory`; errors name `turns[i].<field>` (prefixed by `where`)."""
    prefix = f"{where}." if where else ""
    if not isinstance(turns, Sequence) or isinstance(turns, str) or not turns:
        raise InvalidInput(f"{prefix}turns", "must be a non-empty list of turns")
    memory = Memory(
        goal or "",
        space=space,
        session_id=session_id,
        started_at=session_date,
        kind=KIND_CHAT,
        id=id,
        source=source,
        where=where,
    )
    for i, turn in enumerate(turns):
        field = f"{prefix}turns[{i}]"
        if not isinstance(turn, Mapping):
            raise InvalidInput(field, "must be an object with speaker and text")
        text = _first(turn, TEXT_KEYS)
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput(f"{field}.text", "must be non-empty text")
        speaker = _first(turn, SPEAKER_KEYS)
        if speaker is not None and not isinstance(speaker, str):
            raise InvalidInput(f"{field}.speaker", "must be text")
        try:
            memory.append("", text, _first(turn, TIME_KEYS) or session_date, author=speaker)
        except InvalidInput as exc:  # re-name the step field as a turn field
            raise InvalidInput(f"{field}.time" if exc.field.endswith(".at") else field, exc.message) from None
    return memory.close()
