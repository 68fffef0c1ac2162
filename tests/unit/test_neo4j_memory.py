"""The embedded Neo4j's heap and page cache default to sizes chosen from the machine's memory."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphmem.config import Settings
from graphmem.db import memory
from graphmem.db.embedded import EmbeddedNeo4j

GIB = 1024**3


def test_defaults_are_auto() -> None:
    settings = Settings()
    assert (settings.neo4j_heap, settings.neo4j_pagecache) == ("auto", "auto")


@pytest.mark.parametrize(
    ("total", "heap", "pagecache"),
    [
        (2 * GIB, "512m", "512m"),  # a small machine keeps the floors
        (24 * GIB, "3072m", "6144m"),  # an eighth and a quarter
        (256 * GIB, "8192m", "16384m"),  # a big one is capped
    ],
)
def test_auto_sizes_follow_the_machines_memory(total: int, heap: str, pagecache: str) -> None:
    assert memory.heap_size("auto", total) == heap
    assert memory.pagecache_size("auto", total) == pagecache


def test_a_configured_size_wins() -> None:
    assert memory.heap_size("4g", 2 * GIB) == "4g"
    assert memory.pagecache_size("128m", 256 * GIB) == "128m"


def test_a_malformed_size_is_refused() -> None:
    with pytest.raises(ValidationError):
        Settings(GRAPHMEM_NEO4J_HEAP="lots")


def test_machine_memory_is_positive_and_at_most_physical() -> None:
    import os

    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert 0 < memory.machine_memory_bytes() <= physical


def test_the_embedded_server_is_configured_with_the_chosen_page_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(memory, "machine_memory_bytes", lambda: 24 * GIB)
    server = EmbeddedNeo4j(Settings(GRAPHMEM_NEO4J_DATA=str(tmp_path / "neo"), GRAPHMEM_NEO4J_PAGECACHE="auto"))
    server.paths.home.mkdir(parents=True)
    server._write_conf()
    assert "server.memory.pagecache.size=6144m" in server.paths.conf.read_text(encoding="utf-8").splitlines()
