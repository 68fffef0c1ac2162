"""The write operations of `MemoryGraph` (a mixin; see graphmem/memory_graph.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import InvalidInput
from graphmem.observability import MEMORY_METRICS
from graphmem.write.chat import chat_session
from graphmem.write.documents import ingest_documents
from graphmem.write.episodes import ingest_episodes
from graphmem.write.feedback import record_outcome
from graphmem.write.memory import Memory
from graphmem.write.structurers import Structurer, make_structurer
from graphmem.write.summary import IngestSummary


class WriteOps:
    """Writing experience: documents, trajectories (`Memory`), chat sessions, and outcome feedback."""

    store: Store
    embedder: Embedder
    settings: Settings
    _structurer: Structurer | None = None

    @property
    def structurer(self) -> Structurer:
        """The structurer GRAPHMEM_STRUCTURER selects (rules unless an LLM is configured), made once."""
        if self._structurer is None:
            self._structurer = make_structurer(self.settings)
        return self._structurer

    @structurer.setter
    def structurer(self, value: Structurer) -> None:
        self._structurer = value

    def ingest_documents(
        self,
        space: str,
        documents: Iterable[Mapping[str, Any]],
        *,
        strict: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> IngestSummary:
        """Store dated documents whole (see `graphmem.write.documents`)."""
        return ingest_documents(
            self.store, self.embedder, self.settings, space, documents, strict=strict, progress=progress
        )

    def ingest_episodes(
        self,
        space: str,
        episodes: Iterable[Memory | Mapping[str, Any]],
        *,
        strict: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> IngestSummary:
        """Compile trajectories / chats given as `Memory` objects or JSONL records."""
        summary = ingest_episodes(
            self.store,
            self.embedder,
            self.settings,
            space,
            episodes,
            structurer=self.structurer,
            strict=strict,
            progress=progress,
        )
        stored = sum(1 for episode_id in summary.ids if episode_id is not None)
        MEMORY_METRICS.observe_episodes(
            stored,
            summary.seconds,
            summary.llm.prompt_tokens + summary.llm.completion_tokens,
            summary.created.get("Semantic", 0),
            summary.created.get("Procedural", 0),
        )
        return summary

    def insert(self, memory: Memory) -> IngestSummary:
        """Store one closed (or closable) `Memory` in its own space; `summary.ids[0]` is the episode id."""
        return self.ingest_episodes(memory.space, [memory], strict=True)

    def ingest_chat_sessions(
        self,
        space: str,
        sessions: Sequence[Mapping[str, Any]],
        *,
        strict: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> IngestSummary:
        """Store chat sessions in one call. Each session: `{"turns": [{speaker, text, time?}], "session_id"?,
        "date"?, "id"?, "source"?}`. A bad session is rejected by name (`sessions[i].turns[j].text`) and the
        others stored (with `strict=True` it raises before anything is written); `summary.ids[i]` is
        session i's episode id."""
        memories: list[Memory | Mapping[str, Any]] = []
        positions: list[int] = []
        errors: list[InvalidInput] = []
        for i, session in enumerate(sessions):
            try:
                if not isinstance(session, Mapping):
                    raise InvalidInput(f"sessions[{i}]", "must be an object with turns")
                memories.append(
                    chat_session(
                        space,
                        session.get("turns"),  # type: ignore[arg-type]
                        session_id=session.get("session_id"),
                        session_date=session.get("date"),
                        id=session.get("id"),
                        source=session.get("source"),
                        where=f"sessions[{i}]",
                    )
                )
                positions.append(i)
            except InvalidInput as exc:
                if strict:
                    raise
                errors.append(exc)
        summary = self.ingest_episodes(space, memories, strict=strict, progress=progress)
        ids: list[str | None] = [None] * len(sessions)
        for position, episode_id in zip(positions, summary.ids, strict=True):
            ids[position] = episode_id
        summary.ids = ids
        for error in errors:
            summary.reject(error)
        return summary

    def chat(
        self,
        space: str,
        turns: Sequence[Mapping[str, Any]],
        *,
        session_id: str | None = None,
        session_date: datetime | str | None = None,
    ) -> IngestSummary:
        """Store one chat session (turns of speaker, text, optional time)."""
        memory = chat_session(space, turns, session_id=session_id, session_date=session_date)
        return self.ingest_episodes(space, [memory], strict=True)

    def record_outcome(self, space: str, procedural_id: str, reward: float) -> dict[str, Any]:
        """Feedback on a procedure: its return becomes the running mean of rewards; `uses` + 1."""
        return record_outcome(self.store, space, procedural_id, reward)
