"""Read-time version choice (Mem++ defers it to read time), for questions about a state: when two
candidates say nearly the same thing (text cosine >= GRAPHMEM_READ_VERSION_COSINE, their own texts' or the
documents they were read from) about the same subject (a shared tag) on different dates, and the question
does not tell them apart (the older one's score is at most GRAPHMEM_READ_VERSION_MARGIN above the newer
one's), the newer one is ranked just above the older one.
Two candidates that both name what the question is about (at least half of `question_subject_words`
each: "Orders service") count as versions at a lower text cosine, GRAPHMEM_READ_VERSION_SUBJECT_COSINE,
when the newer one states a value or a change the way organisations write them ("is now", "will lead",
"move ... to", "Resolved:", "replacing"): a team chat's "MongoDB is now the Orders service's primary
database", an ADR's "the Orders service stores its records in Cassandra" and a review's "move the Orders
service to PostgreSQL" are three versions of one answer in three templates, 0.45-0.55 apart, while "the
Orders service load test is on Thursday" states nothing about it. When the question cannot tell them apart,
the latest statement about its subject is the better answer to a question about a state. By the same
reading, a statement of the subject's value is ranked just above chatter that merely mentions the subject
when the question ranks the two alike (`statements_over_mentions`).
A newer candidate that names what it replaces ("Lucas runs Security from today, replacing Hana Sato") is
ranked above an older one stating that value ("Hana Sato will lead the Security team"), however differently
the two are worded and however far below it ranked, when both name what the question is about (more than
half of `question_subject_words` each): organisations announce a change by naming what it replaces, and the
email it replaces may share more words with the question than the one-line chat message that changed it.
Versions lifted to one score read newest first.

Scoping has already removed everything after the question's as-of date, so "newer" means the latest
version known then, and "who heads Payments now" answers with the latest announcement even when nobody
linked the versions by a supersession. A question asks about a state when it gives an as-of date or says
"now", "current", "currently", "latest", "today", "still", "at present" or "these days"; a question about an
event ("when did Mateo take over?") is left as ranked, since there the older version may be the answer, and
so is a question about the change itself ("what is the policy now and what did it replace?"), which needs
both versions and gains nothing from demoting the older one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from neo4j.vector import Vector

from graphmem.db import Store
from graphmem.read.asof import AsOf
from graphmem.read.fusion import Fused
from graphmem.text import CALENDAR_WORDS, normalize_tag

_STATE_CUES = re.compile(
    r"\b(now|current|currently|latest|today|still|nowadays|at present|these days|as of)\b", re.IGNORECASE
)
_CHANGE_CUES = re.compile(
    r"\b(before|previous(ly)?|prior|replac\w*|used to|formerly|superseded|what changed)\b", re.IGNORECASE
)


# "..., replacing Hana Sato." / "instead of MongoDB" / "takes over from Ana": what a newer version names as
# the value it replaces, up to punctuation or a preposition that starts the rest of the sentence.
_REPLACES = re.compile(
    r"\b(?:replacing|replaces|replaced|instead of|in place of|takes? over from|took over from|succeed(?:s|ing)|"
    r"supersed(?:es|ing))\s+(?:the\s+)?(?P<old>[^.,;:!?\n()]+)",
    re.IGNORECASE,
)
_PHRASE_END = re.compile(r"\s+(?:as|at|on|for|from|in|with|effective|starting|since|who|which|because)\b.*$", re.I)


def replaced_values(text: str) -> list[str]:
    """The values a text says it replaces, lower case ("... replacing Hana Sato as lead." -> ["hana sato"])."""
    values = []
    for match in _REPLACES.finditer(text):
        value = _PHRASE_END.sub("", match.group("old")).strip().lower()
        if len(value) >= 3:
            values.append(value)
    return values


_DATE_WORDS = CALENDAR_WORDS | {"today", "yesterday", "tomorrow"}


def question_subject_words(query_tags: Sequence[str]) -> frozenset[str]:
    """The words naming what a question is about, normal forms, dates left out: those of its capitalised
    tags ("Data Platform", "Invoice"), which name it; for a question naming nothing, those of its multiword
    tags ("cloud hosting vendor"). A lone lower-case word ("team", "leading") names nothing in particular,
    and beside a name a lower-case phrase ("primary datastore" of the Invoice engine) names what is asked
    about it, which the Orders service's ADR shares."""
    named: set[str] = set()
    described: set[str] = set()
    for tag in query_tags:
        normal = [w for w in normalize_tag(tag).split() if not _is_date_word(w)]
        if tag[:1].isupper():
            named.update(normal)
        elif len(normal) > 1:
            described.update(normal)
    return frozenset(named or described)


# How organisations state a value or announce its change: "X takes over as head of", "Y will lead",
# "Z is now its primary database", "move the Orders service to PostgreSQL", "stores its records in",
# "we signed with", "we are going with", "Resolved: X is the payroll provider", "Effective May 1 the limit
# will be", "replacing". Chatter that merely mentions a subject ("the Payments demo went well", "the
# Billing offsite is moving to the second week") states no value of it.
_STATES_A_VALUE = re.compile(
    r"\b(?:(?:is|are) now|now (?:its|their|our)|takes? over|took over|(?:will )?leads?|heads|runs|in charge"
    r"|responsible for|handles|uses|becomes?|became"
    r"|appointed|named|promoted|stores?|signed|going with|chose|chosen|selected|is the|will be|changed"
    r"|effective|replac\w+|instead of|decided|decision|agreed|approved|resolved|outcome|set to)\b"
    r"|\b(?:move[sd]?|migrated|switch(?:ed|es)?)\b[^.;\n]*\bto\b",
    re.IGNORECASE,
)


def states_a_value(text: str) -> bool:
    """True when `text` states a value or announces a change in the way organisations write it (above)."""
    return _STATES_A_VALUE.search(text) is not None


def replaces_explicitly(newer: UnitSubject, older: UnitSubject, subject_words: frozenset[str]) -> bool:
    """True when the newer unit says it replaces a value the older one states ("..., replacing Hana Sato"
    after "Hana Sato becomes the Security lead") and both are about what the question names (more than half
    of `subject_words` in each: "Security", not a Route Planning note that also replaced Hana Sato; "cloud
    hosting", not a customer chat contract signed with Nimbus Hosting)."""
    values = _replaced(newer.source_text)
    if not values or not subject_words:
        return False
    older_text = _flat(older.source_text)
    if not any(re.search(rf"(?<!\w){re.escape(v)}(?!\w)", older_text) for v in values):
        return False
    return all(
        2 * len(subject_words & _words(text)) > len(subject_words) for text in (newer.source_text, older.source_text)
    )


def names_subject(candidate: Fused, subject_words: frozenset[str]) -> bool:
    """True when the candidate's own text (a fact's sentence, an evidence unit's text) holds at least half
    of the question's subject words (`question_subject_words`)."""
    if not subject_words:
        return False
    return 2 * len(subject_words & _words(candidate.row.text or "")) >= len(subject_words)


# Version choice compares up to `window`² pairs of the same few texts: each is read once per process-wide
# cache entry, not once per pair.
@lru_cache(maxsize=512)
def _replaced(text: str) -> tuple[str, ...]:
    return tuple(replaced_values(text))


@lru_cache(maxsize=512)
def _flat(text: str) -> str:
    return " ".join(text.lower().split())


@lru_cache(maxsize=512)
def _words(text: str) -> frozenset[str]:
    return frozenset(normalize_tag(text).split())


def _is_date_word(tag: str) -> bool:
    return all(word.isdigit() or word in _DATE_WORDS for word in tag.split())


@dataclass(frozen=True)
class UnitSubject:
    """What version choice and contradiction surfacing read about a candidate, in one lookup."""

    embedding: np.ndarray | None
    tags: frozenset[str]  # normal forms: a fact's own tags, an evidence unit's those of its facts
    tag_names: list[str] | None  # a fact's tag names in the space; None for other kinds
    source_text: str = ""  # what it was said in: a fact's evidence units, an evidence unit's own text
    source_embedding: np.ndarray | None = None  # a fact's evidence unit's; another unit's own


def asks_for_state(query: str, scope: AsOf) -> bool:
    """True for a question about what holds (at a date, or now), not about a change; see the module docstring."""
    if _CHANGE_CUES.search(query) is not None:
        return False
    return not scope.current or _STATE_CUES.search(query) is not None


def version_candidates(ranked: Sequence[Fused], window: int) -> list[str]:
    """Ids of the dated candidates in the first `window` that version choice compares (none if under two)."""
    head = [f.row.id for f in ranked[:window] if f.row.event_at is not None]
    return head if window > 1 and len(head) >= 2 else []


def unit_subjects(store: Store, space: str, ids: Sequence[str]) -> dict[str, UnitSubject]:
    """Embedding and tags of the given units of `space` (one read; none for no ids)."""
    if not ids:
        return {}
    name = "read/unit_embeddings" if store.server.supports_vector_type else "read/unit_embeddings_legacy"
    subjects = {}
    for r in store.read(name, space=space, ids=list(ids)):
        subjects[r["id"]] = UnitSubject(
            embedding=_array(r["embedding"]),
            tags=frozenset(r["tags"] or ()),
            tag_names=r["tag_names"],
            source_text="\n".join(t for t in r.get("source_texts") or () if t),
            source_embedding=_array(r.get("source_embedding")),
        )
    return subjects


def _array(embedding: Vector | Sequence[float] | None) -> np.ndarray | None:
    values = embedding.to_numpy() if isinstance(embedding, Vector) else embedding
    return np.asarray(values, dtype=np.float32) if values is not None and len(values) else None


def _source_or_own(subject: UnitSubject, own: np.ndarray) -> np.ndarray:
    source = subject.source_embedding
    return source if source is not None and source.shape == own.shape else own


def _cosines(vectors: Sequence[np.ndarray]) -> np.ndarray:
    matrix = np.stack(vectors)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    return matrix @ matrix.T


def statements_over_mentions(about: Sequence[Fused], stating: frozenset[str], margin: float) -> dict[str, float]:
    """Lifted scores of the candidates `about` the question's subject that state a value of it (ids in
    `stating`: "Ines Costa takes over as head of Customer Support"), each raised to the best score of a
    candidate about the subject that states nothing ("the Customer Support demo went well today") and ranks
    at most `margin` above it: for a question about a state, the question cannot tell them apart, and only
    the statement answers it."""
    lifted: dict[str, float] = {}
    for f in about:
        if f.row.id in stating:
            above = [m.rrf for m in about if m.row.id not in stating and 0 < m.rrf - f.rrf <= margin]
            if above:
                lifted[f.row.id] = max(above)
    return lifted


def prefer_newer_versions(
    ranked: Sequence[Fused],
    subjects: Mapping[str, UnitSubject],
    window: int,
    min_cosine: float,
    margin: float,
    subject_words: frozenset[str] = frozenset(),
    subject_cosine: float = 1.0,
    links: dict[str, set[str]] | None = None,
) -> list[Fused]:
    """`ranked` with the first `window` candidates reordered as the module docstring says, `subjects` being
    `unit_subjects` of `version_candidates(ranked, window)`; the boost a newer version got is recorded in
    its value parts as `newer_version`, and each pair read as versions in `links` (newer id -> older ids)."""
    vectors: dict[str, np.ndarray] = {}
    for f in ranked[:window]:
        subject = subjects.get(f.row.id)
        if f.row.event_at is not None and subject is not None and subject.embedding is not None:
            vectors[f.row.id] = subject.embedding
    head = [f for f in ranked[:window] if f.row.id in vectors]
    if window <= 1 or len(head) < 2:
        return list(ranked)
    # Two facts restate each other when they do, or when the documents they were read from do: a meeting
    # note's "agreed that Ibrahim will lead Warehouse Operations" and an email's "Elif will lead the
    # Warehouse Operations team" are far apart as sentences, close as documents.
    cosine = np.maximum(
        _cosines([vectors[f.row.id] for f in head]),
        _cosines([_source_or_own(subjects[f.row.id], vectors[f.row.id]) for f in head]),
    )
    tags = {f.row.id: subjects[f.row.id].tags for f in head}
    # Oldest first, so a lift carries on along a chain of versions (2022 -> 2023 -> 2024).
    chronological = sorted(range(len(head)), key=lambda n: head[n].row.event_at)  # type: ignore[arg-type, return-value]
    score = {f.row.id: f.rrf for f in head}
    # which candidates name the question's subject, and which of those state a value: read once, not per pair
    about = [f for f in head if names_subject(f, subject_words)]
    about_ids = {f.row.id for f in about}
    stating = frozenset(f.row.id for f in about if states_a_value(f.row.text or ""))
    stated = statements_over_mentions(about, stating, margin)
    score.update(stated)
    lifted = dict(stated)
    for position, j in enumerate(chronological):
        newer = head[j]
        best = score[newer.row.id]
        for i in chronological[:position]:
            older = head[i]
            gap = score[older.row.id] - newer.rrf
            if older.row.event_at >= newer.row.event_at or gap <= 0:  # type: ignore[operator]
                continue
            restated = gap <= margin and (
                (cosine[i, j] >= min_cosine and bool(tags[older.row.id] & tags[newer.row.id]))
                or (cosine[i, j] >= subject_cosine and older.row.id in about_ids and newer.row.id in stating)
            )
            if restated or replaces_explicitly(subjects[newer.row.id], subjects[older.row.id], subject_words):
                best = max(best, score[older.row.id])
                if links is not None:
                    links.setdefault(newer.row.id, set()).add(older.row.id)
        if best > score[newer.row.id]:
            lifted[newer.row.id] = score[newer.row.id] = best
    if not lifted:
        return list(ranked)
    top = list(ranked[:window])
    own = {f.row.id: f.rrf for f in top}
    for f in top:
        if f.row.id in lifted:
            # the lift, reported by what gave it: stating a value over a mention, then being a newer version
            parts = f.row.extra.setdefault("value", {})
            if f.row.id in stated:
                parts["states_value"] = stated[f.row.id] - f.rrf
            if lifted[f.row.id] > stated.get(f.row.id, f.rrf):
                parts["newer_version"] = lifted[f.row.id] - stated.get(f.row.id, f.rrf)
            f.rrf = lifted[f.row.id]
    # at a tied score a lifted (newer) version goes first, several of them newest first (a chain of versions
    # lifted to its oldest member's score reads latest first), then by their own score
    top.sort(
        key=lambda f: (
            -round(f.rrf, 12),
            f.row.id not in lifted,
            -(f.row.event_at.timestamp() if f.row.id in lifted and f.row.event_at else 0.0),
            -own[f.row.id],
        )
    )
    return top + list(ranked[window:])
