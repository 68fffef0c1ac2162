"""`graphmem bench ingest --docs N [--data FILE] [--out FILE] [--keep]`: write-path throughput.

Ingests N documents of realistic length (synthetic, seeded and deterministic — or cycled from a documents
JSONL given with --data) into a throwaway space through the public `ingest_documents`, and reports docs/s,
where the time went: embedding, Neo4j (every round trip, lookups included) and Python (the rest:
parsing, sentence splitting, tagging, row building), and the texts embedded per document (evidence, facts,
tags; a text already embedded or stored is not embedded again). The space is deleted afterwards unless --keep.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import sys
import uuid
from pathlib import Path
from typing import Any

from graphmem.errors import InvalidInput
from graphmem.timeutil import iso, utc_now
from graphmem.write.embedding import EVIDENCE, FACTS, TAGS

CLEANUP_BATCH = 5000
EMBEDDED_KINDS = (EVIDENCE, FACTS, TAGS)
SEED = 20240305

_PEOPLE = [
    "Alice Martin",
    "Bruno Silva",
    "Chen Wei",
    "Dana Okafor",
    "Elena Petrova",
    "Farid Haddad",
    "Grace Kim",
    "Hugo Laurent",
    "Ines Duarte",
    "Jonas Berg",
    "Kavya Rao",
    "Liam O'Brien",
    "Maya Cohen",
    "Noah Fischer",
]
_TEAMS = ["logistics", "billing", "platform", "warehouse", "customer support", "data", "security", "mobile"]
_SYSTEMS = [
    "route planner",
    "invoice service",
    "inventory database",
    "shipment tracker",
    "payment gateway",
    "dispatch queue",
    "customer portal",
    "label printer fleet",
    "forecasting model",
    "search cluster",
]
_CLIENTS = [
    "Acme Freight",
    "Northwind",
    "Globex",
    "Initech",
    "Umbrella Retail",
    "Stark Logistics",
    "Wayne Foods",
]
_CITIES = ["Rotterdam", "Hamburg", "Lisbon", "Warsaw", "Lyon", "Milan", "Dublin", "Gothenburg"]
_MONTHS = ["January", "March", "April", "June", "August", "September", "October", "November"]
_UNITS = ["ms", "percent", "orders per hour", "trucks", "pallets", "tickets", "GB", "euros"]
_VERBS = ["reduced", "increased", "stabilised", "migrated", "replaced", "audited", "rerouted", "doubled"]
_ACTIONS = ["roll back", "pause", "extend", "re-run", "split", "retire", "document", "load-test"]
_TEMPLATES = [
    "{person} from the {team} team reported that the {system} {verb} latency to {n} {unit} after the {month} release.",
    "During the review on {month} {day}, {person} decided to {action} the {system} for {client}.",
    "The {city} depot handled {n} {unit} last week, which {person} attributes to the new {system}.",
    "{client} asked the {team} team to {action} their contract before the end of {month} {year}.",
    "According to {person}, the {system} outage in {city} lasted {small} hours and affected {n} customers.",
    "We agreed that {person} owns the {system} migration and reports progress to {person2} every Friday.",
    "Budget for the {team} team was set at {n} euros for {year}, with {small} new hires planned in {city}.",
    "The incident postmortem found that a misconfigured {system} caused {n} failed shipments to {client}.",
    "{person2} proposed to {action} the {system} because error rates {verb} by {small} percent in {month}.",
    "Next steps: {person} will contact {client} in {city}, and {person2} will update the {system} runbook.",
]


def synthetic_documents(count: int, seed: int = SEED, id_prefix: str = "bench-doc") -> list[dict[str, Any]]:
    """`count` dated, authored documents of 8-14 sentences (~150-250 words), the same for the same seed.
    Ids are `<id_prefix>-<n>`; give each run its own prefix (ids are unique across spaces)."""
    rng = random.Random(seed)
    docs = []
    for i in range(count):
        sentences = []
        for _ in range(rng.randint(8, 14)):
            people = rng.sample(_PEOPLE, 2)
            sentences.append(
                rng.choice(_TEMPLATES).format(
                    person=people[0],
                    person2=people[1],
                    team=rng.choice(_TEAMS),
                    system=rng.choice(_SYSTEMS),
                    client=rng.choice(_CLIENTS),
                    city=rng.choice(_CITIES),
                    month=rng.choice(_MONTHS),
                    unit=rng.choice(_UNITS),
                    verb=rng.choice(_VERBS),
                    action=rng.choice(_ACTIONS),
                    n=rng.randint(10, 5000),
                    small=rng.randint(2, 40),
                    day=rng.randint(1, 28),
                    year=rng.choice([2022, 2023, 2024, 2025]),
                )
            )
        docs.append(
            {
                "id": f"{id_prefix}-{i:06d}",
                "text": " ".join(sentences),
                "author": rng.choice(_PEOPLE),
                "event_at": f"{rng.choice([2022, 2023, 2024, 2025])}-{rng.randint(1, 12):02d}-"
                f"{rng.randint(1, 28):02d}T{rng.randint(8, 18):02d}:00:00Z",
                "source": "bench",
            }
        )
    return docs


def documents_from_file(path: Path, count: int, id_prefix: str = "bench-doc") -> list[dict[str, Any]]:
    """`count` documents cycled from a documents JSONL; repeats get a suffix so none is an exact repeat."""
    base = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("kind", "document") == "document" and isinstance(record.get("text"), str):
                base.append(record)
    if not base:
        raise InvalidInput("--data", f"{path} holds no documents with text")
    docs = []
    for i in range(count):
        record = dict(base[i % len(base)])
        cycle = i // len(base)
        record["id"] = f"{id_prefix}-{i:06d}"
        record.pop("space", None)
        record.pop("supersedes", None)
        if cycle:
            record["text"] = f"{record['text']} (copy {cycle})"
        docs.append(record)
    return docs


def register_ingest(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("ingest", help="write-path throughput: docs/s and the embed / Neo4j / Python split")
    parser.add_argument("--docs", type=int, required=True, metavar="N", help="number of documents")
    parser.add_argument("--data", type=Path, help="documents JSONL to cycle instead of synthetic documents")
    parser.add_argument("--out", type=Path, help="write the JSON report here")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark space (default: delete it)")
    parser.add_argument("--no-facts", action="store_true", help="store documents only (GRAPHMEM_DERIVE_FACTS=0)")
    parser.set_defaults(handler=run_ingest_bench)


def _table(row: dict[str, Any]) -> str:
    head = ["docs", "seconds", "docs/s", "embed_s", "neo4j_s", "python_s", "non-embed/embed", "non-embed/total"]
    head += [f"{kind}/doc" for kind in EMBEDDED_KINDS]
    values = [
        str(row["docs"]),
        f"{row['seconds']:.2f}",
        f"{row['docs_per_s']:.1f}",
        f"{row['embed_seconds']:.2f}",
        f"{row['db_seconds']:.2f}",
        f"{row['python_seconds']:.2f}",
        f"{row['non_embedding_ratio']:.1%}",
        f"{row['non_embedding_share']:.1%}",
    ]
    values += [f"{row['embedded_per_doc'][kind]:.2f}" for kind in EMBEDDED_KINDS]
    widths = [max(len(h), len(v)) for h, v in zip(head, values, strict=True)]
    line = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True))  # noqa: E731
    return line(head) + "\n" + line(values)


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def run_ingest_bench(args: argparse.Namespace) -> int:
    from graphmem.cli.ingest_cmd import progress_bar
    from graphmem.config import get_settings
    from graphmem.memory_graph import MemoryGraph

    if args.docs < 1:
        raise InvalidInput("--docs", "must be at least 1")
    settings = get_settings()
    if args.no_facts:
        settings = settings.model_copy(update={"derive_facts": False})
    space = f"bench-ingest-{uuid.uuid4().hex[:10]}"
    if args.data:
        docs = documents_from_file(args.data, args.docs, id_prefix=space)
    else:
        docs = synthetic_documents(args.docs, id_prefix=space)
    data_sha = hashlib.sha256(json.dumps([{**d, "id": None} for d in docs], sort_keys=True).encode()).hexdigest()
    graph = MemoryGraph.from_settings(settings)
    started = utc_now()
    try:
        graph.embedder.embed(["warm-up"])  # model load is not ingest time
        graph.store.verify()
        with progress_bar(len(docs), "bench ingest", True) as progress:
            summary = graph.ingest_documents(space, docs, progress=progress)
        if not args.keep:
            while graph.store.write("write/bench_cleanup", space=space, limit=CLEANUP_BATCH)[0]["deleted"]:
                pass
        server = graph.store.server.version
    finally:
        graph.close()
    embed = summary.embed_seconds
    row = {
        "docs": len(docs),
        "seconds": summary.seconds,
        "docs_per_s": len(docs) / summary.seconds if summary.seconds else 0.0,
        "embed_seconds": embed,
        "db_seconds": summary.db_seconds,
        "python_seconds": summary.python_seconds,
        "non_embedding_ratio": (summary.db_seconds + summary.python_seconds) / embed if embed else 0.0,
        "non_embedding_share": (summary.db_seconds + summary.python_seconds) / summary.seconds
        if summary.seconds
        else 0.0,
        # texts sent to the embedder per stored document, by kind (texts seen before are not counted)
        "embedded_per_doc": {kind: summary.embedded.get(kind, 0) / len(docs) for kind in EMBEDDED_KINDS},
    }
    report = {
        "command": "graphmem bench ingest " + " ".join(sys.argv[3:]),
        "dataset": str(args.data) if args.data else "synthetic",
        "data_sha256": data_sha,
        "started_at": iso(started),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "neo4j": server},
        "settings": {
            "embedder": settings.embedder,
            "derive_facts": settings.derive_facts,
            "max_facts_per_document": settings.max_facts_per_document,
            "ingest_batch_size": settings.ingest_batch_size,
            "embed_batch_size": settings.embed_batch_size,
        },
        "result": _rounded(row),
        "summary": {**summary.as_dict(), "embedded_by_kind": summary.embedded, "reused_texts": summary.reused_texts},
    }
    print(_table(row))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report))
    if summary.failed:  # a benchmark that stored less than it was given measures the wrong thing
        first = summary.errors[0]
        print(
            f"graphmem: error: {summary.failed} documents rejected (first: {first.field}: {first.message})",
            file=sys.stderr,
        )
        return 1
    return 0
