"""Load: many concurrent clients mixing recall, tag votes, provenance and ingests against one real service
process on loopback — zero errors, and every acknowledged write present afterwards with its content.

GRAPHMEM_LOAD_CLIENTS / GRAPHMEM_LOAD_SECONDS size it: 16 clients for 10 s in `make test`, 64 for 60 s in
`make reliability`.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import statistics
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator

import httpx
import pytest

from tests.support.figures import record_figures
from tests.support.service import serve_process

CLIENTS = int(os.environ.get("GRAPHMEM_LOAD_CLIENTS", "16"))
SECONDS = float(os.environ.get("GRAPHMEM_LOAD_SECONDS", "10"))
KEY = "gmk_loadtest_" + uuid.uuid4().hex

RECALL = "query($s: String!, $q: String!) { recall(space: $s, query: $q, first: 5) { hits { nodeId kind } } }"
TAG_VOTE = "query($s: String!, $q: String!) { tagVote(space: $s, query: $q, first: 5) { facts { nodeId } } }"
PROVENANCE = "query($s: String!, $id: String!) { provenance(space: $s, id: $id) { nodeId evidence { nodeId } } }"
INGEST = (
    "mutation($i: IngestDocumentsInput!) { ingestDocuments(input: $i) { ids failed userErrors { field message } } }"
)
TOPICS = ["Berlin office budget", "router firmware upgrade", "Atlas project deadline", "billing service owner"]


@pytest.fixture(scope="module")
def service(neo4j_server, tmp_path_factory) -> Iterator[str]:
    key_file = str(tmp_path_factory.mktemp("keys") / "keys.json")
    with serve_process(
        neo4j_server, GRAPHMEM_API_KEYS=f"{KEY}|read,write|*|load-test", GRAPHMEM_API_KEY_FILE=key_file
    ) as base:
        yield base


def _pct(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))], 1) if ordered else 0.0


def test_mixed_load_has_no_errors_and_loses_no_acknowledged_write(service: str, store, space: str) -> None:
    acknowledged: dict[str, str] = {}  # id -> sha256 of the text the service acknowledged
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    known_facts: list[str] = []

    async def client(worker: int) -> None:
        rng = random.Random(worker)
        headers = {"Authorization": f"Bearer {KEY}"}
        async with httpx.AsyncClient(base_url=service, headers=headers, timeout=120) as http:
            stop = time.monotonic() + SECONDS
            n = 0
            while time.monotonic() < stop:
                n += 1
                op = rng.choices(["recall", "tagVote", "provenance", "ingest"], weights=[4, 2, 1, 2])[0]
                topic = rng.choice(TOPICS)
                if op == "ingest":
                    doc_id = f"{space}-w{worker}-{n}"
                    text = f"Note {n} from client {worker}: the {topic} changed on day {rng.randint(1, 365)}."
                    body = {"query": INGEST, "variables": {"i": {"space": space, "documents": [
                        {"id": doc_id, "text": text, "author": f"client{worker}"}]}}}  # fmt: skip
                elif op == "provenance" and known_facts:
                    body = {"query": PROVENANCE, "variables": {"s": space, "id": rng.choice(known_facts)}}
                else:
                    op = "recall" if op == "provenance" else op
                    query = RECALL if op == "recall" else TAG_VOTE
                    body = {"query": query, "variables": {"s": space, "q": f"what about the {topic}?"}}
                started = time.perf_counter()
                try:
                    reply = await http.post("/graphql", json=body)
                except httpx.HTTPError as exc:
                    errors.append(f"{op}: {exc!r}")
                    continue
                latencies[op].append((time.perf_counter() - started) * 1000)
                payload = reply.json() if reply.headers.get("content-type", "").startswith("application/json") else {}
                if reply.status_code != 200 or payload.get("errors"):
                    errors.append(f"{op}: {reply.status_code} {str(payload)[:200]}")
                    continue
                data = payload["data"]
                if op == "ingest":
                    result = data["ingestDocuments"]
                    if result["userErrors"] or result["ids"] != [doc_id]:
                        errors.append(f"ingest: {result}")
                    else:
                        acknowledged[doc_id] = hashlib.sha256(text.encode()).hexdigest()
                elif op == "recall":
                    known_facts.extend(h["nodeId"] for h in data["recall"]["hits"] if h["kind"] == "semantic")

    async def run_all() -> None:
        await asyncio.gather(*(client(w) for w in range(CLIENTS)))

    wall = time.perf_counter()
    asyncio.run(run_all())
    wall = time.perf_counter() - wall

    stored = {
        row["id"]: row["hash"]
        for row in store.run_read_text(
            "MATCH (d:Episodic {space: $space, kind: 'document'}) RETURN d.id AS id, d.content_hash AS hash",
            space=space,
        )
    }
    lost = [doc_id for doc_id, digest in acknowledged.items() if stored.get(doc_id) != digest]
    requests = sum(len(v) for v in latencies.values())
    figures = {
        "clients": CLIENTS,
        "seconds": SECONDS,
        "requests": requests,
        "throughput_rps": round(requests / wall, 1),
        "errors": len(errors),
        "acknowledged_writes": len(acknowledged),
        "lost_writes": len(lost),
        "latency_ms": {
            op: {"n": len(v), "p50": _pct(v, 0.5), "p95": _pct(v, 0.95), "p99": _pct(v, 0.99)}
            for op, v in sorted(latencies.items())
        },
    }
    record_figures("load", figures)
    print(figures)
    assert errors == [], errors[:5]
    assert acknowledged, "no write was acknowledged"
    assert lost == []
    assert requests >= CLIENTS and statistics.median(latencies["recall"]) > 0
