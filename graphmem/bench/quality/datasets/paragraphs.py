"""HotpotQA and MuSiQue: every paragraph pooled into one space; gold is the supporting paragraphs.

A paragraph is identified by its title and text (the same paragraph recurs across questions), and is
ingested as `title` + newline + text, the way multi-hop retrieval work indexes Wikipedia paragraphs.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from graphmem.bench.quality.datasets.base import Benchmark, Document, MetricPlan, Question, Scope
from graphmem.bench.quality.datasets.longmemeval import read_json_maybe_gz
from graphmem.errors import InvalidInput

PLAN = MetricPlan(unit_ks=(2, 5, 10))


def paragraph_key(title: str, text: str) -> str:
    return "p" + hashlib.sha256(f"{title}\x1f{text}".encode()).hexdigest()[:16]


def paragraph_document(title: str, text: str) -> Document:
    return Document(key=paragraph_key(title, text), text=f"{title}\n{text}".strip(), title=title)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InvalidInput("--data", f"{path} line {number} is not JSON: {exc.msg}") from None
    return rows


def _pooled(name: str, items: list[tuple[Question, list[Document]]], corpus: list[Document] | None) -> Benchmark:
    documents: dict[str, Document] = {}
    for doc in corpus or [d for _, docs in items for d in docs]:
        documents.setdefault(doc.key, doc)
    notes: Counter[str] = Counter()
    notes["paragraphs_pooled"] = len(documents)
    questions = [q for q, _ in items]
    scope = Scope(name="pool", questions=questions, documents=list(documents.values()))
    return Benchmark(name=name, scopes=[scope], plan=PLAN, notes=notes)


def load_hotpotqa(path: Path, limit: int | None = None, offset: int = 0) -> Benchmark:
    """IRCoT-processed HotpotQA distractor JSONL: `question_text`, `contexts` with `is_supporting`; the
    questions after the first `offset`, only their own paragraphs pooled."""
    items: list[tuple[Question, list[Document]]] = []
    for row in _read_jsonl(path)[offset:]:
        if limit is not None and len(items) >= limit:
            break
        docs = [paragraph_document(c.get("title", ""), c.get("paragraph_text", "")) for c in row["contexts"]]
        gold = tuple(d.key for d, c in zip(docs, row["contexts"], strict=True) if c.get("is_supporting"))
        question = Question(id=str(row["question_id"]), text=str(row["question_text"]), type="all", gold_units=gold)
        items.append((question, docs))
    return _pooled("hotpotqa", items, None)


def corpus_path_for(path: Path) -> Path:
    """HippoRAG names the corpus beside the questions: `X.json` -> `X_corpus.json`."""
    return path.with_name(path.stem + "_corpus" + path.suffix)


def load_musique(path: Path, limit: int | None = None, offset: int = 0) -> Benchmark:
    """HippoRAG's MuSiQue questions (`paragraphs` with `is_supporting`) plus, when present beside them, the
    corpus file. With `--limit` or `offset` (answerable questions skipped) only the chosen questions' own
    paragraphs are pooled (a smaller haystack)."""
    data = read_json_maybe_gz(path)
    if not isinstance(data, list):
        raise InvalidInput("--data", f"{path} is not a MuSiQue list of questions")
    items: list[tuple[Question, list[Document]]] = []
    skipped = 0
    for row in data:
        if limit is not None and len(items) >= limit:
            break
        if row.get("answerable") is False:
            continue
        if skipped < offset:
            skipped += 1
            continue
        paragraphs = row.get("paragraphs") or []
        docs = [paragraph_document(p.get("title", ""), p.get("paragraph_text", "")) for p in paragraphs]
        gold = tuple(d.key for d, p in zip(docs, paragraphs, strict=True) if p.get("is_supporting"))
        question = Question(id=str(row["id"]), text=str(row["question"]), type=f"{len(gold)}-hop", gold_units=gold)
        items.append((question, docs))
    corpus_file = corpus_path_for(path)
    corpus = None
    if limit is None and offset == 0 and corpus_file.exists():
        raw = read_json_maybe_gz(corpus_file)
        corpus = [paragraph_document(p.get("title", ""), p.get("text", "")) for p in raw]
        # every supporting paragraph must be in the pool, whatever the corpus file holds
        corpus += [d for _, docs in items for d in docs]
    return _pooled("musique", items, corpus)
