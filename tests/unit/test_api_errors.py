"""Errors name the field as the GraphQL client wrote it; limits name theirs."""

from __future__ import annotations

import pytest

from graphmem.api.errors import camel_field, renamed, user_errors
from graphmem.api.limits import check_batch, check_first, check_text
from graphmem.api.listing import decode_cursor, encode_cursor
from graphmem.config import Settings
from graphmem.errors import InvalidInput, NotFound, StoreUnavailable


def test_python_field_paths_become_graphql_paths() -> None:
    assert camel_field("documents[3].event_at", {"documents": "input.documents"}) == "input.documents[3].eventAt"
    assert camel_field("episodes[0].steps[1].observation", {"episodes[0]": "input"}) == "input.steps[1].observation"
    assert camel_field("k", {"k": "first"}) == "first"
    assert camel_field("as_of") == "asOf"


def test_user_errors_carry_field_code_and_message() -> None:
    [error] = user_errors(renamed(NotFound("procedural_id", "no such procedure"), {"procedural_id": "procedureId"}))
    assert (error.field, error.code, error.message) == ("input.procedureId", "NOT_FOUND", "no such procedure")
    [down] = user_errors(StoreUnavailable("Neo4j at bolt://10.0.0.5:7687 is unavailable"))
    assert down.code == "STORE_UNAVAILABLE" and "bolt://" not in down.message


def test_limits_name_the_field() -> None:
    settings = Settings(GRAPHMEM_API_MAX_FIRST=50, GRAPHMEM_API_MAX_TEXT_CHARS=100, GRAPHMEM_API_MAX_BATCH=2)
    assert check_first(settings, None) == 20
    with pytest.raises(InvalidInput, match="first: must be between 1 and 50"):
        check_first(settings, 51)
    with pytest.raises(InvalidInput, match="first"):
        check_first(settings, 0)
    with pytest.raises(InvalidInput, match=r"input.text: is 101 characters; the limit is 100"):
        check_text(settings, "input.text", "x" * 101)
    with pytest.raises(InvalidInput, match="must not be empty"):
        check_text(settings, "query", " \n")
    with pytest.raises(InvalidInput, match="has 3 items; the limit is 2"):
        check_batch(settings, "input.documents", [1, 2, 3])


def test_cursors_round_trip_and_refuse_garbage() -> None:
    from datetime import UTC, datetime

    when = datetime(2024, 6, 1, 12, 30, 15, 123456, tzinfo=UTC)
    assert decode_cursor("Semantic", encode_cursor(when, "fact_1")) == (when, "fact_1")
    assert decode_cursor("Tag", encode_cursor("office", "tag_1")) == ("office", "tag_1")
    for bad in ("nonsense", encode_cursor("not a time", "x")):
        with pytest.raises(InvalidInput, match="after: not a cursor"):
            decode_cursor("Semantic", bad)
