"""`GraphmemSystem`: the benchmark's `RetrievalSystem` over `MemoryGraph` — the only module that knows
graphmem's write and read calls, so rewiring them is a change here alone.

- Ingest: documents through `ingest_documents` under opaque ids (a dataset id never reaches the graph),
  chat sessions through `ingest_chat_sessions` (one Episode per session, one Episodic per turn).
- Rank, units: `recall(variant=...)`; an episodic hit is its own unit, a fact or procedure hit stands for
  the evidence units it was derived from (its provenance), at the rank of the hit.
- Rank, sessions: `recall_sources` for the variants it serves (vector, bm25, hybrid), else the sessions
  of the ranked units in order.
- `reason` / `reason@N` is `retrieve_and_reason` (default budget / N tokens): the items its guidance drew on,
  and its memory tokens.
- `hybrid+asof` is `hybrid` given the question's explicit `as_of`; every other variant ranks without one
  (LongMemEval's question date is context, not a bound, so no variant gets it).
- `<recipe>-no:<stage>` (and `hybrid+asof-no:<stage>`) is the recipe with that stage, plan switch or leg off;
  its sessions are ranked as its recipe's are (`recall_sources` runs no refine stage).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from graphmem.bench.quality.datasets.base import Question, Scope
from graphmem.bench.quality.scoring import Ranking
from graphmem.bench.quality.system import Depth, reason_budget, recipe_of
from graphmem.config import Settings, get_settings
from graphmem.db import Store, install_schema
from graphmem.embed import Embedder, make_embedder
from graphmem.errors import InvalidInput
from graphmem.memory_graph import MemoryGraph
from graphmem.read.pipeline.recipes import ABLATION
from graphmem.read.results import RecallHit, RelatedArtefact

# Variants `recall_sources` ranks sessions with; the others rank sessions through their units.
SOURCE_VARIANTS = {"vector": "vector", "bm25": "bm25", "hybrid": "hybrid", "hybrid+asof": "hybrid"}
DROP_BATCH = 5000
# Facts derived from one unit crowd the top k; fetch this many hits per wanted unit (bounded by MAX_K).
HIT_OVERFETCH = 3
MAX_HITS = 1000


def opaque_id(space: str, key: str) -> str:
    """A document id that carries nothing of the dataset's id (ids must never be a signal)."""
    return "bd_" + hashlib.sha256(f"{space}\x1f{key}".encode()).hexdigest()[:24]


class QueryVectorCache:
    """The embedder, remembering single-text calls: every variant of one question embeds the same question
    text, and embedding it once is what a service answering it several ways would do. Batch calls (ingest)
    pass straight through."""

    def __init__(self, embedder: Embedder, size: int = 256) -> None:
        self._inner = embedder
        self.name = embedder.name
        self.dimensions = embedder.dimensions
        self._size = size
        self._vectors: dict[str, list[float]] = {}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if len(texts) != 1:
            return self._inner.embed(texts)
        text = texts[0]
        if text not in self._vectors:
            if len(self._vectors) >= self._size:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[text] = self._inner.embed([text])[0]
        return [self._vectors[text]]

    def count_tokens(self, text: str) -> int:
        return self._inner.count_tokens(text)


class _SpaceIndex:
    """Graph ids -> dataset keys for one ingested space."""

    def __init__(self) -> None:
        self.documents: dict[str, list[str]] = {}  # Episodic id -> document keys (exact repeats share one)
        self.turns: dict[tuple[str, int], str] = {}  # (Episode id, seq) -> turn key
        self.sessions: dict[str, str] = {}  # Episode id -> session key
        self.session_of_turn: dict[str, str] = {}


class GraphmemSystem:
    def __init__(self, graph: MemoryGraph) -> None:
        self.graph = graph
        self.embedder: Embedder = graph.embedder
        self.server_version = graph.store.server.version
        self._spaces: dict[str, _SpaceIndex] = {}

    # --- ingest ----------------------------------------------------------------------------------
    def ingest(self, space: str, scope: Scope) -> dict[str, Any]:
        index = self._spaces[space] = _SpaceIndex()
        totals: dict[str, Any] = {}
        if scope.documents:
            records = [
                {
                    "id": opaque_id(space, d.key),
                    "text": d.text,
                    "author": d.author,
                    "event_at": d.event_at,
                    "source": d.source,
                }
                for d in scope.documents
            ]
            summary = self.graph.ingest_documents(space, [{k: v for k, v in r.items() if v} for r in records])
            for doc, stored in zip(scope.documents, summary.ids, strict=True):
                if stored is not None:
                    index.documents.setdefault(stored, []).append(doc.key)
            _add_summary(totals, summary.as_dict())
        if scope.sessions:
            sessions = [
                {
                    "session_id": s.key,
                    "date": s.started_at,
                    "turns": [{"speaker": t.speaker or "user", "text": t.text} for t in s.turns],
                }
                for s in scope.sessions
            ]
            summary = self.graph.ingest_chat_sessions(space, [{k: v for k, v in s.items() if v} for s in sessions])
            for session, episode_id in zip(scope.sessions, summary.ids, strict=True):
                if episode_id is None:
                    continue
                index.sessions[episode_id] = session.key
                for seq, turn in enumerate(session.turns):
                    index.turns[(episode_id, seq)] = turn.key
                    index.session_of_turn[turn.key] = session.key
            _add_summary(totals, summary.as_dict())
        return totals

    def attach(self, space: str, scope: Scope) -> bool:
        """Map a space kept by an earlier run of the same scope back to dataset keys, without ingesting;
        False when the space holds no unit (never ingested, or dropped)."""
        rows = self.graph.store.read("bench/space_units", space=space)
        if not rows:
            return False
        index = self._spaces[space] = _SpaceIndex()
        stored = {r["id"] for r in rows}
        first_of_text: dict[str, str] = {}
        for doc in scope.documents:
            unit = opaque_id(space, doc.key)
            if unit in stored:
                first_of_text.setdefault(doc.text, unit)
            unit = first_of_text.get(doc.text, unit)
            if unit in stored:
                index.documents.setdefault(unit, []).append(doc.key)
        by_key = {s.key: s for s in scope.sessions}
        for row in rows:
            session = by_key.get(row["session_id"] or "")
            if session is None or row["seq"] is None or row["seq"] >= len(session.turns):
                continue
            index.sessions[row["episode_id"]] = session.key
            turn = session.turns[row["seq"]]
            index.turns[(row["episode_id"], row["seq"])] = turn.key
            index.session_of_turn[turn.key] = session.key
        if not (index.documents or index.sessions):
            raise InvalidInput("--run-id", f"{space} holds another scope's data: reuse it with the same selection")
        return True

    # --- rank ------------------------------------------------------------------------------------
    def rank(self, space: str, question: Question, variant: str, depth: Depth) -> Ranking:
        index = self._spaces[space]
        if variant.startswith("reason"):
            return self._reason(space, index, question, reason_budget(variant))
        recipe, dated = recipe_of(variant)
        as_of = question.as_of if dated else None
        k = min(MAX_HITS, depth.units * HIT_OVERFETCH)
        result = self.graph.recall(question.text, space, recipe=recipe, k=k, as_of=as_of)
        units = self._unit_keys(space, index, result.evidence_order())[: depth.units]
        sessions: list[str] = []
        if depth.sessions and index.sessions:
            source_recipe = SOURCE_VARIANTS.get(variant) or SOURCE_VARIANTS.get(recipe.partition(ABLATION)[0])
            if source_recipe is not None:
                sources = self.graph.recall_sources(
                    question.text, space, variant=source_recipe, k=depth.sessions, as_of=as_of
                )
                sessions = [index.sessions[s.id] for s in sources if s.id in index.sessions]
            else:
                sessions = list(dict.fromkeys(index.session_of_turn[u] for u in units if u in index.session_of_turn))
        return Ranking(units=units, sessions=sessions[: depth.sessions])

    def _reason(self, space: str, index: _SpaceIndex, question: Question, budget: int | None) -> Ranking:
        """The reasoning step as an agent calls it (default k; `budget` tokens, else the default): its units
        are the items the guidance drew on, each standing for its evidence units, in evidence order."""
        reasoned = self.graph.retrieve_and_reason(question.text, space, token_budget=budget)
        repeats = {h.id: h.repeats for h in reasoned.recall.hits}
        keys: list[str] = []
        for item in reasoned.items:
            for unit in item.evidence:
                keys.extend(self._keys_of_unit(index, unit.id, unit.episode_id, unit.seq))
                for repeat in repeats.get(unit.id, ()):
                    keys.extend(self._keys_of_unit(index, repeat, None, None))
        units = list(dict.fromkeys(keys))
        sessions = list(dict.fromkeys(index.session_of_turn[u] for u in units if u in index.session_of_turn))
        return Ranking(
            units=units,
            sessions=sessions,
            memory_tokens=reasoned.memory_tokens,
            evidence_tokens=reasoned.evidence_tokens,
        )

    def _unit_keys(self, space: str, index: _SpaceIndex, items: Sequence[RecallHit | RelatedArtefact]) -> list[str]:
        """Dataset keys in evidence order: an episodic hit or a related artefact is its own unit, a fact or
        procedure stands for the units it was derived from."""
        derived = [h.id for h in items if isinstance(h, RecallHit) and h.kind != "episodic"]
        evidence: dict[str, list[tuple[str, str | None, int | None]]] = {}
        if derived:
            for row in self.graph.store.read("bench/unit_evidence", space=space, ids=derived):
                evidence.setdefault(row["id"], []).append((row["unit_id"], row["episode_id"], row["seq"]))
        keys: list[str] = []
        for item in items:
            if isinstance(item, RelatedArtefact):
                units: list[tuple[str, str | None, int | None]] = [(item.id, None, None)]
            elif item.kind == "episodic":  # with the repeats of its text folded into it
                units = [(item.id, item.episode_id, item.seq), *((r, None, None) for r in item.repeats)]
            else:
                units = evidence.get(item.id, [])
            for unit_id, episode_id, seq in units:
                keys.extend(self._keys_of_unit(index, unit_id, episode_id, seq))
        return list(dict.fromkeys(keys))

    @staticmethod
    def _keys_of_unit(index: _SpaceIndex, unit_id: str, episode_id: str | None, seq: int | None) -> list[str]:
        if unit_id in index.documents:
            return index.documents[unit_id]
        if episode_id is not None and seq is not None and (episode_id, seq) in index.turns:
            return [index.turns[(episode_id, seq)]]
        return []

    # --- cleanup ---------------------------------------------------------------------------------
    def drop(self, space: str) -> int:
        self._spaces.pop(space, None)
        deleted = 0
        while True:
            rows = self.graph.store.write("bench/drop_space", space=space, batch=DROP_BATCH)
            batch = int(rows[0]["deleted"]) if rows else 0
            deleted += batch
            if batch == 0:
                return deleted


def _add_summary(totals: dict[str, Any], summary: dict[str, Any]) -> None:
    for label, n in (summary.get("created") or {}).items():
        totals[f"created_{label}"] = totals.get(f"created_{label}", 0) + n
    for key in ("skipped", "failed", "embedded_texts", "embed_seconds", "db_seconds"):
        value = summary.get(key)
        if isinstance(value, int | float):
            totals[key] = round(totals.get(key, 0) + value, 3)


_EMBEDDERS: dict[str, QueryVectorCache] = {}


def shared_embedder(settings: Settings) -> QueryVectorCache:
    """One loaded model per process and embedder setting: repeated runs in one process (tests) reuse it."""
    if settings.embedder not in _EMBEDDERS:
        _EMBEDDERS[settings.embedder] = QueryVectorCache(make_embedder(settings))
    return _EMBEDDERS[settings.embedder]


@contextmanager
def open_graphmem_system(settings: Settings | None = None) -> Iterator[GraphmemSystem]:
    """A `GraphmemSystem` on the configured Neo4j with the configured (default: MiniLM) embedder."""
    settings = settings or get_settings()
    embedder = shared_embedder(settings)
    with Store.from_settings(settings) as store:
        install_schema(store, embedder.dimensions, settings.vector_quantization)
        yield GraphmemSystem(MemoryGraph(store, embedder, settings))
