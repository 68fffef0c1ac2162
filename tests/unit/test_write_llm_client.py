"""`LLMClient` against a real local OpenAI-compatible HTTP server (tests/support/fake_openai.py)."""

from __future__ import annotations

import time

import pytest
from pydantic import BaseModel

from graphmem.llm import LLMClient, LLMError
from tests.support.fake_openai import FakeOpenAI, Reply, error_reply, json_reply, malformed_reply, slow_reply


class Answer(BaseModel):
    subgoal: str
    score: float


MESSAGES = [{"role": "user", "content": "structure this"}]


def client(server: FakeOpenAI, **kwargs: float) -> LLMClient:
    return LLMClient(server.base_url, "fake-model", "k", timeout_s=kwargs.get("timeout_s", 5.0), max_retries=2)


def test_a_valid_reply_is_parsed_validated_and_counted() -> None:
    with FakeOpenAI([json_reply({"subgoal": "search", "score": 0.5}, prompt_tokens=30, completion_tokens=9)]) as server:
        answer, usage = client(server).complete_json(MESSAGES, Answer)

    assert answer == Answer(subgoal="search", score=0.5)
    assert (usage.prompt_tokens, usage.completion_tokens, usage.calls, usage.failures) == (30, 9, 1, 0)
    request = server.requests[0]
    assert request["model"] == "fake-model" and request["messages"] == MESSAGES
    schema = request["response_format"]["json_schema"]["schema"]
    assert request["response_format"]["type"] == "json_schema" and set(schema["properties"]) == {"subgoal", "score"}


def test_a_malformed_reply_is_retried_and_every_attempt_counted() -> None:
    script = [malformed_reply(), json_reply({"subgoal": 3}), json_reply({"subgoal": "open", "score": 1})]
    with FakeOpenAI(script) as server:
        answer, usage = client(server).complete_json(MESSAGES, Answer)

    assert answer.subgoal == "open"
    assert usage.calls == 3 and usage.prompt_tokens == 33 and usage.failures == 0
    assert "invalid" in server.requests[1]["messages"][-1]["content"]  # the retry says what was wrong


def test_persistent_garbage_raises_after_bounded_retries() -> None:
    with FakeOpenAI([malformed_reply()]) as server, pytest.raises(LLMError) as info:
        client(server).complete_json(MESSAGES, Answer)

    assert len(server.requests) == 3  # 1 + max_retries
    assert info.value.usage.calls == 3 and info.value.usage.failures == 1
    assert "does not fit Answer" in str(info.value)


def test_a_slow_endpoint_times_out_within_the_bound() -> None:
    with FakeOpenAI([slow_reply(3.0, {"subgoal": "late", "score": 0})]) as server:
        started = time.perf_counter()
        with pytest.raises(LLMError) as info:
            LLMClient(server.base_url, "m", timeout_s=0.3, max_retries=1).complete_json(MESSAGES, Answer)
        elapsed = time.perf_counter() - started

    assert "timed out" in str(info.value)
    assert elapsed < 2.5  # two attempts of 0.3 s plus back-off, not the 3 s reply
    assert info.value.usage.calls == 2


def test_server_errors_are_retried_and_fenced_json_accepted() -> None:
    fenced = Reply('```json\n{"subgoal": "pay", "score": 0.25}\n```')
    with FakeOpenAI([error_reply(503), fenced]) as server:
        answer, usage = client(server).complete_json(MESSAGES, Answer)

    assert answer.subgoal == "pay" and usage.calls == 2


def test_an_endpoint_without_json_schema_support_gets_plain_json_mode() -> None:
    with FakeOpenAI([error_reply(400), json_reply({"subgoal": "x", "score": 0})]) as server:
        answer, _ = client(server).complete_json(MESSAGES, Answer)

    assert answer.subgoal == "x"
    assert server.requests[1]["response_format"] == {"type": "json_object"}


def test_missing_usage_is_estimated_locally() -> None:
    with FakeOpenAI([Reply('{"subgoal": "x", "score": 0}', usage=False)]) as server:
        _, usage = client(server).complete_json(MESSAGES, Answer)

    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
