"""Structurers: `RuleStructurer` (default, deterministic) and `LLMStructurer` (any OpenAI-compatible LLM)."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.llm import LLMClient, llm_configured
from graphmem.write.structurers.base import FactDraft, InsightDraft, StepInput, StepStructure, Structurer
from graphmem.write.structurers.llm import LLMStructurer
from graphmem.write.structurers.rules import RuleStructurer, facts_from_text


def make_structurer(settings: Settings) -> Structurer:
    """GRAPHMEM_STRUCTURER: `rules`, `llm` (needs GRAPHMEM_LLM_BASE_URL and _MODEL), or `auto` (llm if configured)."""
    choice = settings.structurer
    if choice == "rules" or (choice == "auto" and not llm_configured(settings)):
        return RuleStructurer()
    if not llm_configured(settings):
        raise ConfigError("GRAPHMEM_STRUCTURER=llm needs GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL")
    return LLMStructurer(LLMClient.from_settings(settings))


__all__ = [
    "FactDraft",
    "InsightDraft",
    "LLMStructurer",
    "RuleStructurer",
    "StepInput",
    "StepStructure",
    "Structurer",
    "facts_from_text",
    "make_structurer",
]
