"""`CallEmbedder`: one ingest call's embedding, each text embedded at most once.

Within a call a text is embedded once, however many records, batches or roles (evidence, fact, tag) hold
it; a fact whose sentence a fact of the space already holds takes that fact's stored vector (one batched
read by text hash); a tag that resolved to another tag in an earlier batch keeps its vector for the later
ones (tags resolving to their own node are found by id and never embedded again). Texts embedded are
counted per kind in the call's `IngestSummary`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.ids import content_hash
from graphmem.write.summary import IngestSummary

# Kinds of embedded text, as counted in `IngestSummary.embedded`.
EVIDENCE, FACTS, TAGS, SUBGOALS, PROCEDURES = "evidence", "facts", "tags", "subgoals", "procedures"
# Remembered vectors per call at most (float32, ~1.6 kB each at 384 dimensions); the oldest go first.
MEMO_TEXTS = 50_000


class CallEmbedder:
    """Embeds for one ingest call into `space`; see the module docstring."""

    def __init__(self, embedder: Embedder, summary: IngestSummary, store: Store, space: str) -> None:
        self.embedder, self.summary, self.store, self.space = embedder, summary, store, space
        self._memo: dict[str, np.ndarray] = {}

    def remember(self, vectors: Mapping[str, Sequence[float]]) -> None:
        """Keep these texts' vectors for the rest of the call."""
        for text, vector in vectors.items():
            self._memo.pop(text, None)
            self._memo[text] = np.asarray(vector, dtype=np.float32)
        while len(self._memo) > MEMO_TEXTS:
            del self._memo[next(iter(self._memo))]

    def stored_facts(self, texts: Iterable[str]) -> dict[str, list[float]]:
        """Vectors of the facts of the space whose text is one of `texts`, by text (one read)."""
        by_hash = {content_hash(t): t for t in dict.fromkeys(texts)}
        if not by_hash:
            return {}
        rows = self.summary.timed_db(
            lambda: self.store.read("write/fact_vectors", space=self.space, hashes=list(by_hash))
        )
        return {by_hash[r["hash"]]: list(r["embedding"]) for r in rows if r["hash"] in by_hash}

    def embed(
        self, texts: Sequence[str], kinds: str | Sequence[str], known: Mapping[str, list[float]] | None = None
    ) -> list[list[float]]:
        """Vectors for `texts`, in order: from `known`, then the call's memory, else embedded (each distinct
        text once, in one model call). `kinds` names what each text is (one kind for all, or one per text);
        a text embedded is counted under the kind of its first occurrence."""
        per_text = [kinds] * len(texts) if isinstance(kinds, str) else list(kinds)
        found: dict[str, list[float]] = dict(known or {})
        missing: dict[str, str] = {}
        for text, kind in zip(texts, per_text, strict=True):
            if text in found or text in missing:
                continue
            memo = self._memo.get(text)
            if memo is not None:
                found[text] = memo.tolist()
            else:
                missing[text] = kind
        if missing:
            with self.summary.timing("embed_seconds"):
                vectors = self.embedder.embed(list(missing))
            found.update(zip(missing, vectors, strict=True))
            for kind in missing.values():
                self.summary.count_embedded(kind)
        self.summary.reused_texts += sum(1 for t in dict.fromkeys(texts) if t not in missing)
        return [found[t] for t in texts]
