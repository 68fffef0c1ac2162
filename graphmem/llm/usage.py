"""Token accounting for LLM calls: every call reports what it cost, callers add the costs up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class LLMUsage:
    """Prompt / completion tokens and call counts; `failures` counts calls that gave no usable answer."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    failures: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: LLMUsage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.calls += other.calls
        self.failures += other.failures

    def as_dict(self) -> dict[str, int]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "calls": self.calls,
            "failures": self.failures,
        }
