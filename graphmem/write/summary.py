"""`IngestSummary`: what one ingest call did and where its time went — the CLI prints it as JSON."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from graphmem.errors import InvalidInput
from graphmem.llm.usage import LLMUsage

LABELS = ("Episode", "Episodic", "Semantic", "Tag", "Subgoal", "Procedural")
T = TypeVar("T")


@dataclass
class RecordError:
    """A rejected record: `field` names it (`documents[3].text`), `message` says what is wrong."""

    field: str
    message: str

    @classmethod
    def of(cls, exc: InvalidInput) -> RecordError:
        return cls(exc.field, exc.message)


@dataclass
class IngestSummary:
    """Counts and timings of one ingest; `ids` holds the stored (or already present) id of each input
    record in input order, None where the record was rejected."""

    created: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    relationships: int = 0
    skipped: int = 0
    failed: int = 0
    errors: list[RecordError] = field(default_factory=list)
    ids: list[str | None] = field(default_factory=list)
    seconds: float = 0.0
    embed_seconds: float = 0.0
    db_seconds: float = 0.0
    embedded_texts: int = 0
    embedded: dict[str, int] = field(default_factory=dict)
    reused_texts: int = 0
    llm: LLMUsage = field(default_factory=LLMUsage)
    llm_by_episode: dict[str, LLMUsage] = field(default_factory=dict)
    _started: float = field(default_factory=time.perf_counter, repr=False)

    def count_created(self, label: str, n: int) -> None:
        self.created[label] = self.created.get(label, 0) + int(n)

    def count_embedded(self, kind: str, n: int = 1) -> None:
        """Texts sent to the embedder, by kind (evidence, facts, tags, subgoals, procedures)."""
        self.embedded[kind] = self.embedded.get(kind, 0) + n
        self.embedded_texts += n

    def count_llm(self, usage: LLMUsage, episode_id: str | None = None) -> None:
        """Add an LLM call's usage to the total (and to its episode's, when given)."""
        self.llm.add(usage)
        if episode_id is not None and (usage.calls or usage.total_tokens):
            self.llm_by_episode.setdefault(episode_id, LLMUsage()).add(usage)

    def reject(self, error: InvalidInput) -> None:
        self.failed += 1
        self.errors.append(RecordError.of(error))

    @contextmanager
    def timing(self, bucket: str) -> Iterator[None]:
        """Adds the block's wall time to `embed_seconds` or `db_seconds`."""
        start = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            setattr(self, bucket, getattr(self, bucket) + elapsed)

    def timed_db(self, work: Callable[[], T]) -> T:
        with self.timing("db_seconds"):
            return work()

    def finish(self) -> IngestSummary:
        self.seconds = time.perf_counter() - self._started
        return self

    def merge(self, other: IngestSummary) -> None:
        for label, n in other.created.items():
            self.count_created(label, n)
        self.relationships += other.relationships
        self.skipped += other.skipped
        self.failed += other.failed
        self.errors.extend(other.errors)
        self.ids.extend(other.ids)
        self.embed_seconds += other.embed_seconds
        self.db_seconds += other.db_seconds
        self.embedded_texts += other.embedded_texts
        for kind, n in other.embedded.items():
            self.embedded[kind] = self.embedded.get(kind, 0) + n
        self.reused_texts += other.reused_texts
        self.llm.add(other.llm)
        for episode_id, usage in other.llm_by_episode.items():
            self.llm_by_episode.setdefault(episode_id, LLMUsage()).add(usage)

    @property
    def python_seconds(self) -> float:
        return max(0.0, self.seconds - self.embed_seconds - self.db_seconds)

    def as_dict(self, *, include_ids: bool = False, max_errors: int = 20) -> dict[str, Any]:
        data: dict[str, Any] = {
            "created": dict(self.created),
            "relationships": self.relationships,
            "skipped": self.skipped,
            "failed": self.failed,
            "errors": [{"field": e.field, "message": e.message} for e in self.errors[:max_errors]],
            "seconds": round(self.seconds, 3),
            "embed_seconds": round(self.embed_seconds, 3),
            "db_seconds": round(self.db_seconds, 3),
            "python_seconds": round(self.python_seconds, 3),
            "embedded_texts": self.embedded_texts,
            "llm_tokens": self.llm.as_dict(),
        }
        if include_ids:
            data["ids"] = list(self.ids)
            data["llm_tokens_by_episode"] = {k: v.as_dict() for k, v in self.llm_by_episode.items()}
        return data
