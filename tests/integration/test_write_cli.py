"""`graphmem ingest` and `graphmem bench ingest` as a user runs them: a subprocess against real Neo4j."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphmem.db import Store

pytestmark = pytest.mark.integration


def run_cli(neo4j_server, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    env = {
        **os.environ,
        "NEO4J_URI": neo4j_server.uri,
        "NEO4J_USER": neo4j_server.user,
        "NEO4J_PASSWORD": neo4j_server.password,
        "GRAPHMEM_EMBEDDER": "hashing:384",
        "GRAPHMEM_STRUCTURER": "rules",
    }
    return subprocess.run(
        [sys.executable, "-m", "graphmem.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=300,
        check=False,
    )


def test_ingest_documents_prints_a_summary_and_names_bad_lines(
    neo4j_server,
    store: Store,
    space: str,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    lines = [
        json.dumps(
            {
                "id": f"{space}-1",
                "text": "Alice Martin joined the billing team in March.",
                "author": "HR",
                "event_at": "2024-03-01T00:00:00Z",
            }
        ),
        "{not json",
        json.dumps({"text": "The Lisbon office opened in 2021.", "event_at": "2021-05-01T00:00:00Z"}),
        "",
        json.dumps({"text": ""}),
    ]
    file = tmp_path / "docs.jsonl"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    result = run_cli(neo4j_server, "ingest", "documents", str(file), "--space", space)

    assert result.returncode == 1, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["created"]["Episodic"] == 2 and summary["created"]["Semantic"] >= 2
    assert summary["failed"] == 2 and summary["skipped"] == 0
    assert [e["field"] for e in summary["errors"]] == ["documents[1]", "documents[3].text"]
    assert "line 2 is not valid JSON" in summary["errors"][0]["message"]
    for key in ("seconds", "embed_seconds", "db_seconds", "llm_tokens"):
        assert key in summary
    assert "2 of 4 records rejected (first: documents[1]" in result.stderr.strip().splitlines()[-1]
    stored = store.run_read_text("MATCH (d:Episodic) WHERE d.space = $space RETURN count(d) AS n", space=space)
    assert stored[0]["n"] == 2

    again = run_cli(neo4j_server, "ingest", "documents", str(file), "--space", space, "--strict")
    assert again.returncode == 1 and "documents[1]: line 2 is not valid JSON" in again.stderr


def test_ingest_episodes_from_stdin(neo4j_server, store: Store, space: str) -> None:  # type: ignore[no-untyped-def]
    episodes = [
        {
            "goal": "water the plants",
            "outcome": 1.0,
            "steps": [
                {"action": "fill the watering can", "observation": "The can holds 5 litres."},
                {"action": "water the ficus", "observation": "The ficus soil is moist now."},
            ],
        },
        {
            "kind": "chat",
            "session_id": "c1",
            "started_at": "2024-01-02T10:00:00Z",
            "steps": [{"speaker": "Ann", "text": "I moved to Porto in 2022."}],
        },
    ]
    stdin = "\n".join(json.dumps(e) for e in episodes)

    result = run_cli(neo4j_server, "ingest", "episodes", "-", "--space", space, "--no-progress")

    assert result.returncode == 1 and "FILE: stdin holds no records" in result.stderr  # nothing piped in
    result = run_cli(neo4j_server, "ingest", "episodes", "-", "--space", space, stdin=stdin)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["created"]["Episode"] == 2 and summary["created"]["Episodic"] == 3
    assert summary["created"]["Procedural"] >= 1 and summary["failed"] == 0
    kinds = store.run_read_text(
        "MATCH (e:Episode) WHERE e.space = $space RETURN e.kind AS kind ORDER BY kind", space=space
    )
    assert [k["kind"] for k in kinds] == ["chat", "trajectory"]


def test_bench_ingest_reports_throughput_and_the_time_split(neo4j_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "ingest.json"

    result = run_cli(neo4j_server, "bench", "ingest", "--docs", "12", "--out", str(out))

    assert result.returncode == 0, result.stderr
    assert "docs/s" in result.stdout.splitlines()[0]
    report = json.loads(out.read_text())
    assert report["result"]["docs"] == 12 and report["result"]["docs_per_s"] > 0
    assert report["summary"]["created"]["Episodic"] == 12
    for key in ("embed_seconds", "db_seconds", "python_seconds", "non_embedding_ratio"):
        assert report["result"][key] >= 0
    assert report["machine"]["cpus"] >= 1 and report["data_sha256"]
    per_doc = report["result"]["embedded_per_doc"]
    assert per_doc["evidence"] == 1.0 and per_doc["facts"] > 1 and per_doc["tags"] > 0
    assert "tags/doc" in result.stdout.splitlines()[0]
