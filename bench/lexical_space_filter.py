"""The lexical leg with the space filtered after Lucene (full-text indexes without `space`, today) against
the former shape (`space` a full-text field, `+space:"…"^0` in the query), on one graph, alternating.

Usage: python bench/lexical_space_filter.py [--facts 100000] [--spaces 10] [--probes 300] [--json out.json]

Loads `--facts` Semantic facts over `--spaces` spaces (6-14 words each from a 3,000-word vocabulary,
Zipf-like), builds a temporary former-shape index beside `semantic_text`, then times `lexical_leg` (k=10,
semantic only) for random three-word questions in random spaces, both variants per probe, and prints p50 /
p95 wall ms and Neo4j calls per leg. The graph and the temporary index are dropped at the end.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from typing import Any

from graphmem.config import get_settings
from graphmem.db import Store, install_schema
from graphmem.db.queries import load_query
from graphmem.read.asof import AsOf
from graphmem.read.legs import lexical

FORMER_INDEX = "bench_semantic_text_in_space"
FIELDS_QUERY = lexical.fields_query


def former_query(words: str, space: str, fields: Any) -> str:
    """The former Lucene query: the space as a zero-boost phrase on the `space` field, beside the words."""
    phrase = space.replace("\\", "\\\\").replace('"', '\\"')
    return f'+space:"{phrase}"^0 +({FIELDS_QUERY(words, fields)})'


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--spaces", type=int, default=10)
    parser.add_argument("--probes", type=int, default=300)
    parser.add_argument("--json", help="write the figures here too")
    args = parser.parse_args(argv)
    rng = random.Random(7)
    words = [f"{rng.choice('bcdfgklmnprstvz')}{rng.choice('aeiou')}{rng.choice('lmnrst')}{i}" for i in range(3000)]
    prefix = f"lexbench-{uuid.uuid4().hex[:8]}-s"
    spaces = [f"{prefix}{i}" for i in range(args.spaces)]
    with Store.from_settings(get_settings()) as store:
        install_schema(store, 384)
        for start in range(0, args.facts, 10_000):
            store.write(
                "bench/lexical_load_facts",
                start=start,
                count=min(10_000, args.facts - start),
                spaces=args.spaces,
                prefix=prefix,
                words=words,
            )
        store.write("bench/lexical_in_space_index")
        store.read("schema/await_indexes", seconds=600)
        semantic = load_query("read/fulltext_units")
        former = semantic.replace("'semantic_text'", f"'{FORMER_INDEX}'")
        calls = {"after": 0, "former": 0}
        variant = "after"
        read = Store.read

        def counted(self: Store, name: str, **params: Any) -> list[dict[str, Any]]:
            calls[variant] += 1
            if variant == "former" and name == "read/fulltext_units":
                return self.run_read_text(former, **params)
            return read(self, name, **params)

        Store.read = counted  # type: ignore[method-assign]
        today = lexical.fields_query
        samples: dict[str, list[float]] = {"after": [], "former": []}
        scope = AsOf.resolve(None, None)
        try:
            probes = [(" ".join(rng.sample(words[:600], 3)), rng.choice(spaces)) for _ in range(args.probes + 20)]
            for n, (question, space) in enumerate(probes):
                for variant in ("former", "after") if n % 2 else ("after", "former"):
                    lexical.fields_query = (
                        today
                        if variant == "after"
                        # type: ignore[assignment]
                        else (lambda words, fields, space=space: former_query(words, space, fields))
                    )
                    started = time.perf_counter()
                    lexical.lexical_leg(store, space, question, [0.0] * 384, scope, ("semantic",), k=10)
                    if n >= 20:  # the first 20 probes warm both indexes
                        samples[variant].append((time.perf_counter() - started) * 1000)
        finally:
            Store.read = read  # type: ignore[method-assign]
            lexical.fields_query = today
            store.write("bench/lexical_drop_in_space_index")
            for space in spaces:
                while store.write("bench/drop_space", space=space, batch=10_000)[0]["deleted"]:
                    pass
    result = {
        variant: {
            "p50_ms": round(statistics.median(ms), 2),
            "p95_ms": round(statistics.quantiles(ms, n=20)[18], 2),
            "neo4j_calls_per_leg": round(calls[variant] / (args.probes + 20), 2),
        }
        for variant, ms in samples.items()
    }
    print(f"$ python bench/lexical_space_filter.py {' '.join(argv)}")
    print(f"{args.facts:,} facts in {args.spaces} spaces, {args.probes} lexical legs per variant (k=10), alternating")
    print("| variant | p50 ms | p95 ms | Neo4j calls per leg |")
    print("|---|---|---|---|")
    names = {"former": "`space` in the full-text index (former)", "after": "filter after Lucene (now)"}
    for variant in ("former", "after"):
        r = result[variant]
        print(f"| {names[variant]} | {r['p50_ms']} | {r['p95_ms']} | {r['neo4j_calls_per_leg']} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"facts": args.facts, "spaces": args.spaces, "probes": args.probes, **result}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
