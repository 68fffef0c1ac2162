"""The perf generator builds one big space in bounded memory: fact rows go to Neo4j a chunk at a time and the
vectors are computed without full-size temporaries, with exactly the values the one-shot code gave."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
import pytest

from graphmem.bench import perf


def test_clustered_vectors_equal_the_one_shot_formula(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perf, "FACT_CHUNK", 7)
    rng = np.random.default_rng(3)
    centroids = rng.standard_normal((5, 16))
    assignment = rng.integers(0, 5, 50)
    noise = rng.standard_normal((50, 16))
    expected = perf._unit(centroids[assignment] + 0.05 * noise)
    assert np.array_equal(perf._clustered(centroids, assignment, noise.copy(), 0.05), expected)


def test_facts_of_one_space_are_loaded_in_chunks_and_all_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[tuple[str, list[dict[str, Any]]]] = []
    monkeypatch.setattr(perf, "FACT_CHUNK", 400)
    monkeypatch.setattr(perf, "_load", lambda store, name, rows, batch=0, **params: loads.append((name, list(rows))))
    monkeypatch.setattr(perf, "await_indexes", lambda store: None)
    monkeypatch.setattr(perf.uuid, "uuid4", lambda: uuid.UUID(int=7))
    graph = perf.generate_and_load(None, 1000, 16, spaces=1)  # type: ignore[arg-type]
    fact_loads = [rows for name, rows in loads if name == "bench/perf_load_facts"]
    assert [len(rows) for rows in fact_loads] == [400, 400, 200]
    ids = [row["id"] for rows in fact_loads for row in rows]
    assert ids == graph.fact_ids[graph.spaces[0]] and len(set(ids)) == 1000
    successors = {s["new_id"] for name, rows in loads if name == "bench/perf_load_supersessions" for s in rows}
    assert successors <= set(ids)
