"""A real local HTTP server that speaks the OpenAI chat-completions API with scripted replies.

Tests point the real `openai` client (through `graphmem.llm.LLMClient`) at `server.base_url`; every
request goes over real HTTP. Replies come from a script: a list consumed in order (the last entry
repeats), or a function of the request. Helpers build the reply kinds tests need:

    with FakeOpenAI([json_reply({"facts": []}), malformed_reply(), slow_reply(5.0)]) as server:
        client = LLMClient(server.base_url, "fake-model", timeout_s=1.0)

`server.requests` holds every request body received (parsed JSON), in order.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """What the server answers: `content` as the assistant message, or an HTTP error `status`."""

    content: str = ""
    status: int = 200
    delay_s: float = 0.0
    prompt_tokens: int = 11
    completion_tokens: int = 7
    usage: bool = True


def json_reply(value: Any, *, prompt_tokens: int = 11, completion_tokens: int = 7) -> Reply:
    """A well-formed answer whose message content is `value` as JSON."""
    return Reply(json.dumps(value), prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


def malformed_reply(text: str = '{"facts": [ this is not json') -> Reply:
    """An answer whose content is not valid JSON."""
    return Reply(text)


def slow_reply(seconds: float, value: Any = None) -> Reply:
    """An answer that arrives only after `seconds` (for client timeouts)."""
    return Reply(json.dumps(value if value is not None else {}), delay_s=seconds)


def error_reply(status: int = 500) -> Reply:
    return Reply(json.dumps({"error": {"message": "scripted failure", "type": "server_error"}}), status=status)


Script = list[Reply] | Callable[[dict[str, Any]], Reply]


@dataclass
class FakeOpenAI:
    """The server; use as a context manager. `script` may be replaced between calls (`set_script`)."""

    script: Script = field(default_factory=lambda: [json_reply({})])
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._index = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def set_script(self, script: Script) -> None:
        with self._lock:
            self.script = script
            self._index = 0

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if callable(self.script):
                return self.script(body)
            reply = self.script[min(self._index, len(self.script) - 1)]
            self._index += 1
            return reply

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet test output
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                reply = fake._next_reply(body)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.status != 200:
                    self._send_raw(reply.status, reply.content.encode())
                    return
                payload: dict[str, Any] = {
                    "id": f"chatcmpl-fake-{len(fake.requests)}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", "fake-model"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply.content},
                            "finish_reason": "stop",
                        }
                    ],
                }
                if reply.usage:
                    payload["usage"] = {
                        "prompt_tokens": reply.prompt_tokens,
                        "completion_tokens": reply.completion_tokens,
                        "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                    }
                self._send(200, payload)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._send_raw(status, json.dumps(payload).encode())

            def _send_raw(self, status: int, data: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

        return Handler

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
