"""LLM access: one OpenAI-compatible client with schema-validated JSON answers, and token accounting."""

from __future__ import annotations

from graphmem.config import Settings
from graphmem.llm.client import LLMClient, parse_json_reply
from graphmem.llm.errors import LLMError
from graphmem.llm.usage import LLMUsage


def llm_configured(settings: Settings) -> bool:
    """True when GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL are both set."""
    return bool(settings.llm_base_url and settings.llm_model)


__all__ = ["LLMClient", "LLMError", "LLMUsage", "llm_configured", "parse_json_reply"]
