"""The evidence items a piece of guidance drew on, with their provenance, in evidence order.

A recall's packed evidence is made of blocks, each a hit, a related document or a whole episode; guidance
names the blocks it used by id. Facts and procedures bring the evidence units they rest on as they stood
at the recall's as-of date; an evidence unit or a document is its own evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from graphmem.read.results import (
    EvidenceUnit,
    ExpandedEpisode,
    ReasonedItem,
    RecallHit,
    RecallResult,
    RelatedArtefact,
)

EvidenceOf = Callable[[list[str]], Mapping[str, list[EvidenceUnit]]]


def guidance_items(result: RecallResult, item_ids: Sequence[str], evidence_of: EvidenceOf) -> list[ReasonedItem]:
    """`item_ids` (evidence block ids) as items, in the order given; `evidence_of(fact ids)` loads the
    units behind facts and procedures (one call)."""
    hits = {h.id: h for h in result.hits}
    related = {r.id: r for r in result.related}
    episodes = {e.episode_id: e for e in result.episodes}
    derived = [i for i in item_ids if i in hits and hits[i].kind != "episodic"]
    units = evidence_of(derived) if derived else {}
    items: list[ReasonedItem] = []
    for item_id in item_ids:
        if item_id in hits:
            items.append(_hit_item(hits[item_id], units.get(item_id, [])))
        elif item_id in related:
            items.append(_related_item(related[item_id]))
        elif item_id in episodes:
            items.append(_episode_item(episodes[item_id]))
    return items


def _unit_of_hit(hit: RecallHit) -> EvidenceUnit:
    return EvidenceUnit(
        id=hit.id, text=hit.text, event_at=hit.event_at, author=hit.author, seq=hit.seq, source=None,
        episode_id=hit.episode_id, session_id=None, episode_goal=None,
    )  # fmt: skip


def _hit_item(hit: RecallHit, units: Sequence[EvidenceUnit]) -> ReasonedItem:
    evidence = (_unit_of_hit(hit),) if hit.kind == "episodic" else tuple(units)
    return ReasonedItem(
        id=hit.id, kind=hit.kind, text=hit.text, event_at=hit.event_at, author=hit.author, status=hit.status,
        valid_from=hit.valid_from, valid_to=hit.valid_to, episode_id=hit.episode_id, relation=None,
        evidence=evidence,
    )  # fmt: skip


def _related_item(artefact: RelatedArtefact) -> ReasonedItem:
    unit = EvidenceUnit(
        id=artefact.id, text=artefact.text, event_at=artefact.event_at, author=artefact.author, seq=None,
        source=artefact.source, episode_id=None, session_id=None, episode_goal=None,
    )  # fmt: skip
    return ReasonedItem(
        id=artefact.id, kind="episodic", text=artefact.text, event_at=artefact.event_at, author=artefact.author,
        status=artefact.status, valid_from=artefact.valid_from, valid_to=artefact.valid_to, episode_id=None,
        relation=artefact.relation, evidence=(unit,),
    )  # fmt: skip


def _episode_item(episode: ExpandedEpisode) -> ReasonedItem:
    evidence = tuple(
        EvidenceUnit(
            id=u.id, text=u.text, event_at=u.event_at, author=u.author, seq=u.seq, source=None,
            episode_id=episode.episode_id, session_id=episode.session_id, episode_goal=episode.goal,
        )
        for u in episode.units
    )  # fmt: skip
    first = next((u.event_at for u in episode.units if u.event_at), None)
    return ReasonedItem(
        id=episode.episode_id, kind="episode", text=episode.goal or episode.session_id or episode.episode_id,
        event_at=first, author=None, status=None, valid_from=None, valid_to=None, episode_id=episode.episode_id,
        relation=None, evidence=evidence,
    )  # fmt: skip
