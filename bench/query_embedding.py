"""Why one short question's embedding costs what it costs: A/B of the suspects, interleaved.

Usage: python bench/query_embedding.py [--calls 200] [--block 10] [--hog N] [--only TEXT ...]

Loads the default sentence-transformers model twice (short calls in ONNX Runtime, and in torch) and times
`--calls` embeddings of one 10-word question per variant, after an untimed warm-up, rotating the variants
every `--block` calls so that the shared machine's load falls on all of them alike. `--hog N` runs N
busy-looping processes meanwhile (the contention Neo4j's background work causes); `--only` keeps the
variants whose name holds one of the texts.
Prints median / p95 ms per variant and the load average.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable

QUESTION = "what did the Berlin office decide about the travel budget?"


def _hog() -> None:  # pragma: no cover - a CPU burner
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--hog", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args()

    import torch

    from graphmem.config import get_settings
    from graphmem.embed.sentence_transformers import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()  # torch; GRAPHMEM_EMBED_THREADS' default: 1 thread for a question
    onnx = SentenceTransformerEmbedder(query_runtime="onnx", cache_dir=get_settings().cache_dir.expanduser() / "onnx")
    model = embedder._model
    default_threads = os.cpu_count() or 1
    torch.set_num_threads(default_threads)

    def encode(**kw: object) -> Callable[[], object]:
        return lambda: model.encode([QUESTION], normalize_embeddings=True, show_progress_bar=False, **kw)

    def threads(n: int, call: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            torch.set_num_threads(n)
            try:
                return call()
            finally:
                torch.set_num_threads(default_threads)

        return run

    def raw_forward() -> object:
        features = model.tokenize([QUESTION])
        with torch.inference_mode():
            out = model.forward(features)["sentence_embedding"]
        return torch.nn.functional.normalize(out, dim=1)[0].tolist()

    def no_grad(call: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            with torch.inference_mode():
                return call()

        return run

    one = [QUESTION]
    variants: dict[str, Callable[[], object]] = {
        f"service embed(), {onnx.query_runtime} ({onnx.threads_for(one)} thread)": lambda: onnx.embed(one),
        f"service embed(), torch ({embedder.threads_for(one)} thread)": lambda: embedder.embed(one),
        f"encode, {default_threads} threads": encode(),
        "encode, 1 thread": threads(1, encode()),
        "encode, progress bar on": lambda: model.encode([QUESTION], normalize_embeddings=True, show_progress_bar=True),
        "encode, tensor out (no numpy)": encode(convert_to_tensor=True),
        "encode under inference_mode": no_grad(encode()),
        f"tokenize+forward, inference_mode, {default_threads} threads": raw_forward,
        "tokenize+forward, inference_mode, 1 thread": threads(1, raw_forward),
        "tokenize only": lambda: model.tokenize([QUESTION]),
    }
    if args.only:
        variants = {name: call for name, call in variants.items() if any(o in name for o in args.only)}
    start = time.perf_counter()
    embedder.embed([QUESTION])
    first = (time.perf_counter() - start) * 1000
    for call in variants.values():  # warm-up: first call per shape and thread count
        torch.set_num_threads(default_threads)
        for _ in range(3):
            call()

    hogs = [multiprocessing.Process(target=_hog, daemon=True) for _ in range(args.hog)]
    for p in hogs:
        p.start()
    load_before = os.getloadavg()
    samples: dict[str, list[float]] = {name: [] for name in variants}
    try:
        while min(len(s) for s in samples.values()) < args.calls:
            for name, call in variants.items():
                torch.set_num_threads(default_threads)  # untimed: embed() leaves its own setting behind
                for _ in range(args.block):
                    t0 = time.perf_counter()
                    call()
                    samples[name].append((time.perf_counter() - t0) * 1000)
    finally:
        for p in hogs:
            p.terminate()
    load_after = os.getloadavg()
    print(f"cpus {os.cpu_count()}, torch threads {default_threads}, hogs {args.hog}, first call {first:.1f} ms")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    width = max(len(n) for n in variants)
    print(f"{'variant'.ljust(width)}  p50 ms  p95 ms")
    for name, values in samples.items():
        values.sort()
        p95 = values[int(0.95 * (len(values) - 1))]
        print(f"{name.ljust(width)}  {statistics.median(values):6.2f}  {p95:6.2f}")


if __name__ == "__main__":
    main()
