"""LLM failures: raised after the bounded retries are spent; callers keep the data and count the failure."""

from __future__ import annotations

from graphmem.errors import GraphmemError
from graphmem.llm.usage import LLMUsage


class LLMError(GraphmemError):
    """The endpoint failed, timed out or kept answering something that does not fit the schema.

    `usage` holds the tokens spent on the failed attempts, so they are still counted."""

    code = "LLM_FAILED"

    def __init__(self, message: str, usage: LLMUsage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or LLMUsage(calls=1, failures=1)
