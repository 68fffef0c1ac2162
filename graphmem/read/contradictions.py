"""Contradiction surfacing: when two active facts among the top hits, stated by different authors, disagree
about one subject, recall says so and shows both sides with dates and authors instead of silently ranking
one above the other.

"Disagree" is the consolidation rule classifier's `conflict` verdict (`graphmem.pairs.rules`): the same
subject (a common opening and a shared tag), one differing value or a negation. No generative model runs on
the read path. A contradiction that a supersession has already resolved no longer shows: the superseded
side is no longer active, so it is not among the hits of a current question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from itertools import combinations

from graphmem.db import Store
from graphmem.model.nodes import STATUS_ACTIVE
from graphmem.pairs import CONFLICT, CandidatePair, PairSide, RuleClassifier
from graphmem.read.results import Contradiction, ContradictionSide, RecallHit

_CLASSIFIER = RuleClassifier()
_UNDATED = datetime.min.replace(tzinfo=UTC)


def _side(hit: RecallHit, tags: Sequence[str]) -> PairSide:
    valid_from = hit.valid_from or hit.event_at or _UNDATED
    return PairSide(
        id=hit.id,
        text=hit.text,
        valid_from=valid_from,
        recorded_at=None,
        author=hit.author,
        credibility=None,
        tags=tuple(sorted(tags)),
    )


def find_contradictions(
    store: Store,
    space: str,
    hits: Sequence[RecallHit],
    candidates: int,
    known_tags: Mapping[str, Sequence[str]] | None = None,
) -> list[Contradiction]:
    """Conflicting pairs among the first `candidates` active, authored fact hits, in rank order of their
    better-ranked side. `known_tags`: tag names of facts already looked up in this recall (not read again)."""
    facts = [h for h in hits if h.kind == "semantic" and h.status == STATUS_ACTIVE and h.author][:candidates]
    if len({h.author for h in facts}) < 2:
        return []
    tags = {h.id: list(known_tags[h.id]) for h in facts if known_tags and h.id in known_tags}
    missing = [h.id for h in facts if h.id not in tags]
    if missing:
        tags.update((r["id"], list(r["tags"])) for r in store.read("read/fact_tags", space=space, ids=missing))
    found: list[Contradiction] = []
    for a, b in combinations(facts, 2):
        if a.author == b.author:
            continue
        shared = sorted(set(tags.get(a.id, [])) & set(tags.get(b.id, [])))
        if not shared:  # without a cosine, the classifier's "same subject" needs a shared tag
            continue
        pair = CandidatePair(
            label="Semantic",
            a=_side(a, tags.get(a.id, [])),
            b=_side(b, tags.get(b.id, [])),
            similarity=None,
            shared_tags=len(shared),
            shares_episode=False,
        )
        verdict = _CLASSIFIER.classify_one(pair)
        if verdict.label != CONFLICT:
            continue
        earlier, later = sorted((a, b), key=lambda h: (h.event_at or _UNDATED, h.id))
        found.append(
            Contradiction(
                subject=shared,
                reason=verdict.reason,
                sides=(_contradiction_side(earlier), _contradiction_side(later)),
            )
        )
    return found


def _contradiction_side(hit: RecallHit) -> ContradictionSide:
    return ContradictionSide(id=hit.id, text=hit.text, author=hit.author, event_at=hit.event_at, status=hit.status)
