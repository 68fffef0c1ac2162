"""The audit queries refuse a parameter of another type than they document (a date as text used to answer
nothing, silently), wherever they are run from: the Python API and the read-only console."""

from __future__ import annotations

import json

import pytest

from graphmem.cli import main
from graphmem.db import Store
from graphmem.db.queries import load_query
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from tests.support.evolution_fixtures import day

pytestmark = pytest.mark.integration


@pytest.fixture
def console(cli_env: Store) -> None:
    """The CLI pointed at the test server (`cli_env`)."""


@pytest.fixture
def memo(store: Store, space: str) -> str:
    """One document of 10 January 2024 in the space; its id."""
    memory = MemoryGraph(store, HashingEmbedder(384))
    memory.ingest_documents(space, [{"id": "memo-1", "text": "The Acme office is located in Paris.",
                                     "author": "ana", "event_at": "2024-01-10T09:00:00Z"}], strict=True)  # fmt: skip
    return "memo-1"


def test_a_date_as_text_is_refused_by_name_not_answered_with_nothing(store: Store, space: str, memo: str) -> None:
    window = {"space": space, "until": day("2025-01-01"), "limit": 100}
    rows = store.read("audit/changes_between", since=day("2024-01-01"), **window)
    assert [r["id"] for r in rows if r["label"] == "Episodic"] == [memo]
    with pytest.raises(InvalidInput) as refused:
        store.read("audit/changes_between", since="2024-01-01T00:00:00Z", **window)
    assert refused.value.field == "since" and "must be a datetime, not str" in refused.value.message


def test_the_console_reads_an_iso_date_and_names_a_bad_one(console, space: str, memo: str, capsys) -> None:
    query = load_query("audit/changes_between")
    args = ["cypher", query, "--param", f"space={space}", "--param", "until=2025-01-01T00:00:00Z",
            "--param", "limit=100"]  # fmt: skip
    assert main([*args, "--param", "since=2024-01-01T00:00:00Z"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["change"], r["id"]) for r in rows if r["label"] == "Episodic"] == [("added", memo)]
    assert main([*args, "--param", "since=last week"]) == 1
    assert capsys.readouterr().err.strip() == (
        "graphmem: error: since: 'last week' is not an ISO 8601 date-time (e.g. 2024-03-05T10:00:00Z)"
    )
