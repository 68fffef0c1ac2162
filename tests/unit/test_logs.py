"""Service logs are JSON lines carrying the request id of the request that wrote them."""

from __future__ import annotations

import json
import logging

from graphmem.logs import REQUEST_ID, JsonFormatter


def test_log_line_is_json_with_the_request_id() -> None:
    token = REQUEST_ID.set("req-123")
    try:
        record = logging.LogRecord("graphmem.api", logging.ERROR, __file__, 1, "request failed: %s", ("boom",), None)
        line = json.loads(JsonFormatter().format(record))
    finally:
        REQUEST_ID.reset(token)
    assert line["request_id"] == "req-123"
    assert line["message"] == "request failed: boom"
    assert line["level"] == "error" and line["logger"] == "graphmem.api"
