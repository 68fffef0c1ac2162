"""What every benchmark loader produces: scopes of retrievable units and questions with gold keys.

A *scope* is what one fresh space holds (a LongMemEval haystack, a LoCoMo conversation, a pooled
paragraph corpus, a versioned-documents space). Units are documents or chat sessions of turns; gold is
named by the dataset's own unit keys, so scoring never depends on ids the graph invents.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Turn:
    """One chat turn; `key` is the dataset's turn id (e.g. LoCoMo `D3:7`)."""

    key: str
    text: str
    speaker: str | None = None


@dataclass(frozen=True)
class Session:
    """One chat session, ingested as one Episode with one Episodic per turn.

    `key` is what graphmem sees as the session id: loaders rename ids that would leak the answer.
    """

    key: str
    started_at: str | None
    turns: tuple[Turn, ...]

    @property
    def text(self) -> str:
        return "\n".join(t.text for t in self.turns)


@dataclass(frozen=True)
class Document:
    """One whole document (a paragraph, an artefact), ingested as one Episodic."""

    key: str
    text: str
    author: str | None = None
    event_at: str | None = None
    source: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class Question:
    """A question with its gold evidence, named by unit keys of its scope.

    `gold_units`: turn or document keys; `gold_sessions`: session keys (chat datasets only);
    `stale`: keys of outdated versions (versioned only); `as_of`: a hard valid-time bound (versioned
    `as_of` questions only); `asked_at`: when the question was asked — context, never a filter.
    """

    id: str
    text: str
    type: str
    gold_units: tuple[str, ...] = ()
    gold_sessions: tuple[str, ...] = ()
    stale: tuple[str, ...] = ()
    as_of: str | None = None
    asked_at: str | None = None


@dataclass
class Scope:
    """The content of one fresh space and the questions asked of it."""

    name: str
    questions: list[Question]
    documents: list[Document] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)

    @property
    def unit_count(self) -> int:
        return len(self.documents) + sum(len(s.turns) for s in self.sessions)


@dataclass(frozen=True)
class MetricPlan:
    """Which rankings a dataset scores and at which cut-offs."""

    unit_ks: tuple[int, ...]
    session_ks: tuple[int, ...] = ()
    # the metric family the headline table shows first: "session" (LongMemEval), "unit" otherwise
    primary: str = "unit"
    versioned: bool = False


@dataclass
class Benchmark:
    """A loaded dataset: its scopes, how to score it, and what the loader had to skip or repair."""

    name: str
    scopes: list[Scope]
    plan: MetricPlan
    notes: Counter[str] = field(default_factory=Counter)

    @property
    def questions(self) -> list[Question]:
        return [q for s in self.scopes for q in s.questions]
