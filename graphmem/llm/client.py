"""`LLMClient`: JSON answers from any OpenAI-compatible chat-completions endpoint, validated by pydantic.

One generic call, `complete_json(messages, response_model) -> (model, usage)`, shared by the write path
(structuring), the read path (reasoning) and evolution (classification). The response is requested with a
JSON schema (falling back to plain JSON mode for endpoints that refuse schemas), parsed, and validated;
timeouts, connection errors, 429/5xx and invalid answers are retried a bounded number of times, then
`LLMError` is raised. Nothing here invents an answer.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.llm.errors import LLMError
from graphmem.llm.usage import LLMUsage

M = TypeVar("M", bound=BaseModel)
log = logging.getLogger(__name__)

_FENCE_RE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
RETRY_BACKOFF_S = 0.2


def _estimate_tokens(text: str) -> int:
    """A local estimate (~4 characters a token) for endpoints that report no usage."""
    return max(1, (len(text) + 3) // 4) if text else 0


def parse_json_reply(content: str | None) -> Any:
    """The JSON value in a reply, tolerating a Markdown code fence around it. Raises ValueError."""
    if content is None or not content.strip():
        raise ValueError("empty reply")
    match = _FENCE_RE.match(content)
    return json.loads(match.group(1) if match else content)


class LLMClient:
    """A chat-completions client with schema-validated JSON answers and bounded retries."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        token_counter: Callable[[str], int] | None = None,
    ) -> None:
        from openai import OpenAI

        if not base_url:
            raise ConfigError("GRAPHMEM_LLM_BASE_URL is required for the LLM client")
        if not model:
            raise ConfigError("GRAPHMEM_LLM_MODEL is required for the LLM client")
        self.base_url = base_url
        self.model = model
        self.max_retries = max_retries
        self.count_tokens = token_counter or _estimate_tokens
        # The openai client's own retries are off: ours count every attempt's tokens and re-ask on bad JSON.
        self._client = OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s, max_retries=0)
        self._schema_mode = True

    @classmethod
    def from_settings(cls, settings: Settings, token_counter: Callable[[str], int] | None = None) -> LLMClient:
        if not settings.llm_base_url or not settings.llm_model:
            raise ConfigError("an LLM needs GRAPHMEM_LLM_BASE_URL and GRAPHMEM_LLM_MODEL")
        return cls(
            settings.llm_base_url,
            settings.llm_model,
            settings.llm_api_key,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
            token_counter=token_counter,
        )

    def _response_format(self, response_model: type[BaseModel]) -> dict[str, Any]:
        if not self._schema_mode:
            return {"type": "json_object"}
        return {
            "type": "json_schema",
            "json_schema": {"name": response_model.__name__, "schema": response_model.model_json_schema()},
        }

    def _usage_of(self, response: Any, messages: Sequence[Mapping[str, str]], content: str | None) -> LLMUsage:
        usage = getattr(response, "usage", None)
        if usage is not None and usage.prompt_tokens is not None:
            return LLMUsage(int(usage.prompt_tokens), int(usage.completion_tokens or 0), calls=1)
        prompt = sum(self.count_tokens(str(m.get("content", ""))) for m in messages)
        return LLMUsage(prompt, self.count_tokens(content or ""), calls=1)

    def complete_json(
        self,
        messages: Sequence[Mapping[str, str]],
        response_model: type[M],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
    ) -> tuple[M, LLMUsage]:
        """Ask for a JSON answer shaped like `response_model`; returns it validated, with the tokens spent
        over all attempts. Raises `LLMError` (carrying the usage) once `max_retries` retries are spent."""
        import openai

        total = LLMUsage()
        conversation = [dict(m) for m in messages]
        last_error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(RETRY_BACKOFF_S * (2 ** (attempt - 1)))
            kwargs: dict[str, Any] = {
                "model": self.model,
                "messages": conversation,
                "temperature": temperature,
                "response_format": self._response_format(response_model),
            }
            if max_tokens is not None:
                kwargs["max_tokens"] = max_tokens
            try:
                response = self._client.chat.completions.create(**kwargs)
            except openai.APITimeoutError:
                total.calls += 1
                last_error = f"timed out after {self._client.timeout}s"
                continue
            except openai.APIConnectionError as exc:
                total.calls += 1
                last_error = f"connection failed: {exc}"
                continue
            except openai.APIStatusError as exc:
                total.calls += 1
                last_error = f"HTTP {exc.status_code}: {str(exc)[:200]}"
                if exc.status_code == 400 and self._schema_mode:
                    self._schema_mode = False  # an endpoint without json_schema support: plain JSON mode
                    continue
                if exc.status_code in (408, 409, 429) or exc.status_code >= 500:
                    continue
                break
            content = response.choices[0].message.content if response.choices else None
            total.add(self._usage_of(response, conversation, content))
            try:
                value = parse_json_reply(content)
                return response_model.model_validate(value), total
            except (ValueError, ValidationError) as exc:
                last_error = f"reply does not fit {response_model.__name__}: {str(exc)[:300]}"
                conversation = [
                    *[dict(m) for m in messages],
                    {"role": "assistant", "content": content or ""},
                    {"role": "user", "content": f"That reply was invalid ({last_error}). Answer with JSON only."},
                ]
        total.failures += 1
        log.warning("LLM call to %s failed: %s", self.base_url, last_error)
        raise LLMError(f"LLM at {self.base_url} gave no valid answer: {last_error}", total)
