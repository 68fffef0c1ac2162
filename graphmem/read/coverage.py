"""Artefacts where everything a question names appears together.

"Miguel Torres's statement and Diego Alvarez's statement, and was their clash resolved?" is answered by the
thread and the meeting where both of them speak, not by the many where one of them does. The tag-documents
leg already scores a document by the question subjects it covers, but it ranks the subjects alike: "resolved"
and "Diego" count as much as "Diego" and "Miguel". Here only the question's *names* count, each once however
its words were matched ("Helix's COO" is one name, though "Helix's" and "COO" match tags of their own): when
it names two or more people, systems or organisations, and only a handful of documents cover every one of
them, those documents are where the names meet, and recall lifts them (`GRAPHMEM_READ_COVER_BONUS`). When many
documents cover them all (a company named in every memo), covering them says nothing and nothing is lifted.
"""

from __future__ import annotations

from collections.abc import Iterable

from graphmem.read.legs.base import LegRanking
from graphmem.text import CALENDAR_WORDS, names_in, normalize_tag


def named_subjects(question: str, subjects: Iterable[str]) -> list[frozenset[str]]:
    """Per name in the question (a sentence-opening word is none, nor a month or a weekday: "the May 2023
    decision" names a date), the subjects sharing a word with it; a name within a longer one ("Kansas" in
    "Kansas City") counts as the longer one, names no subject matches are left out."""
    words = [frozenset(normalize_tag(name).split()) - CALENDAR_WORDS for name in names_in(question)]
    names = [w for w in dict.fromkeys(words) if w and not any(w < other for other in words)]
    subject_words = {s: set(normalize_tag(s).split()) for s in subjects}
    per_name = [frozenset(s for s, sw in subject_words.items() if sw & name) for name in names]
    return [matched for matched in per_name if matched]


def covering_documents(tag_documents: LegRanking, named: list[frozenset[str]], max_documents: int) -> frozenset[str]:
    """Ids of the tag-documents leg's documents that cover every named subject (a name is covered by any of
    its subjects), when the question names at least two and at most `max_documents` of the leg's documents
    cover them all; else none."""
    if len(named) < 2:
        return frozenset()
    covering = [
        row.id for row in tag_documents.rows if all(name & set(row.extra.get("subjects") or ()) for name in named)
    ]
    return frozenset(covering) if len(covering) <= max_documents else frozenset()
