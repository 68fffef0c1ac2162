"""The client's GraphQL documents stay valid against the service's schema (they break loudly on drift)."""

from __future__ import annotations

import pytest
from graphql import build_schema, parse, validate

import graphmem.client as client
from graphmem.cli.serve_cmd import export_sdl


@pytest.mark.parametrize("name", ["RECALL", "INGEST_DOCUMENTS", "PROVENANCE", "HISTORY", "SUPERSEDE"])
def test_client_document_validates_against_the_schema(name: str) -> None:
    schema = build_schema(export_sdl())
    errors = validate(schema, parse(getattr(client, name)))
    assert [e.message for e in errors] == []


def test_user_errors_become_exceptions_naming_the_field() -> None:
    body = {"data": {"ingestDocuments": {"userErrors": [{"field": "documents[0].text", "code": "INVALID_INPUT",
                                                         "message": "must not be empty"}]}}}  # fmt: skip
    with pytest.raises(client.GraphmemClientError) as caught:
        client._raise_for_errors(body)
    assert caught.value.field == "documents[0].text"
    assert "documents[0].text" in str(caught.value)
