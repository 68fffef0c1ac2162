"""Temporal truth, property-based: random histories of documents on one subject, supersessions (dated in the
past, at another version's start, before the old version began, or in 2031) and erasures are applied to the
real service through its Python API, and every read at random (asOf, knownAt) pairs is compared with the
reference model (tests/support/temporal_model.py). The number of histories is GRAPHMEM_TEMPORAL_CASES
(`make reliability` runs 1,000). Zero disagreements is the specification.

Reads compared per (asOf, knownAt): the Episodic and Semantic listings (GraphQL's `episodics` / `semantics`),
the audit query `facts_as_of`, and each node's provenance (found or not, evidence, lineage, whether the node
itself is the version valid then). Per history: each node's history (versions, links with their record
times, the cached valid_to/status of a current read) and `changes` between dates.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.api.listing import list_page
from graphmem.api.scope import ReadScope
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed.hashing import HashingEmbedder
from graphmem.errors import GraphmemError, NotFound
from graphmem.evolution.changes import changes
from graphmem.evolution.history import history
from graphmem.evolution.supersede import supersede
from graphmem.ids import content_id
from graphmem.read.provenance import provenance
from graphmem.timeutil import utc_now
from graphmem.write.documents import ingest_documents
from graphmem.write.structurers.rules import facts_from_text
from tests.support.figures import record_figures
from tests.support.temporal_model import FAR_FUTURE, Record, TemporalModel

pytestmark = pytest.mark.integration

CASES = int(os.environ.get("GRAPHMEM_TEMPORAL_CASES", "20"))
CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Lisbon", "Vienna", "Prague", "Dublin", "Oslo", "Turin"]
AUTHORS = ["idris", "paolo", "mei"]
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
FUTURE = datetime(2031, 1, 1, tzinfo=UTC)
TICK = timedelta(microseconds=1)
PAIRS_PER_HISTORY = 6
LISTING_PAGE = 200


def document_forget() -> tuple[Callable[..., Any] | None, str]:
    """`forget(store, space, id=..., by=...)` for documents, or None with the reason it cannot be used."""
    module = importlib.import_module("graphmem.evolution.forget")  # the package re-exports the function
    forget = getattr(module, "forget", None)
    if forget is None or "id" not in inspect.signature(forget).parameters:
        return None, "graphmem.evolution.forget.forget(store, space, id=..., by=...) for documents does not exist yet"
    return forget, ""


def document_text(city: str) -> str:
    return f"The Acme office is in {city}."


# --- histories ------------------------------------------------------------------------------------
@st.composite
def histories(draw: st.DrawFn, erasures: bool) -> list[tuple[Any, ...]]:
    """Events: ("ingest", k, event_at, city, author), ("supersede", new_k, old_k, at), ("forget", k)."""
    n = draw(st.integers(2, 4))
    days = draw(st.lists(st.integers(0, 500), min_size=n, max_size=n))
    cities = draw(st.permutations(CITIES))[:n]
    starts = [EPOCH + timedelta(days=d) for d in days]
    events: list[tuple[Any, ...]] = []
    for k in range(n):
        events.append(("ingest", k, starts[k], cities[k], draw(st.sampled_from(AUTHORS))))
        for _ in range(draw(st.integers(0, 2))):
            kinds = ["supersede", "supersede", "forget"] if erasures else ["supersede"]
            if draw(st.sampled_from(kinds)) == "forget":
                events.append(("forget", draw(st.integers(0, k))))
                continue
            if k >= 1 and draw(st.integers(0, 7)):
                new, old = draw(st.permutations(range(k + 1)))[:2]
            else:
                new = old = draw(st.integers(0, k))  # a version superseding itself: refused
            at = {
                "new": starts[new],
                "old": starts[old],
                "after both": max(starts[new], starts[old]) + timedelta(days=1),
                "before the old began": starts[old] - timedelta(days=1),  # refused
                "future": FUTURE,
                "any": EPOCH + timedelta(days=draw(st.integers(0, 700))),
            }[draw(st.sampled_from(["new", "old", "after both", "before the old began", "future", "future", "any"]))]
            events.append(("supersede", new, old, at))
    return events


# --- the service side ------------------------------------------------------------------------------
@dataclass
class Service:
    """The real service in one fresh space, driven through graphmem's own Python API."""

    store: Store
    space: str
    settings: Settings
    embedder: HashingEmbedder
    forget: Callable[..., Any] | None

    def doc_id(self, k: int) -> str:
        return f"{self.space}-d{k}"

    def fact_ids(self, doc_id: str, text: str) -> tuple[str, ...]:
        drafts = facts_from_text(text, max_facts=self.settings.max_facts_per_document, titles=True)
        return tuple(content_id("fact", self.space, doc_id, k, d.text) for k, d in enumerate(drafts))

    def ingest(self, doc_id: str, text: str, event_at: datetime, author: str) -> datetime:
        record = {"id": doc_id, "text": text, "event_at": event_at.isoformat(), "author": author}
        summary = ingest_documents(self.store, self.embedder, self.settings, self.space, [record], strict=True)
        assert summary.ids == [doc_id], summary
        [version] = [v for v in history(self.store, self.space, doc_id).versions if v.id == doc_id]
        assert version.recorded_at is not None
        return version.recorded_at

    def link_recorded_at(self, new: str, old: str) -> datetime:
        links = [ln for ln in history(self.store, self.space, new).links if (ln.newer_id, ln.older_id) == (new, old)]
        assert len(links) == 1 and links[0].recorded_at is not None, links
        return links[0].recorded_at

    def listing(self, label: str, as_of: datetime | None, known_at: datetime | None) -> set[str]:
        scope = ReadScope.resolve(self.space, as_of, known_at)
        filters: dict[str, Any] = (
            {"kind": None, "author": None, "episode": None}
            if label == "Episodic"
            else {"author": None, "tag": None, "tag_norm": None}
        )
        ids: set[str] = set()
        after: str | None = None
        while True:
            page = asyncio.run(list_page(self.store, label, scope, LISTING_PAGE, after, filters))
            ids |= {edge.node.node_id for edge in page.edges}
            if not page.page_info.has_next_page:
                return ids
            after = page.page_info.end_cursor

    def facts_as_of(self, as_of: datetime, known_at: datetime) -> set[str]:
        rows = self.store.read("audit/facts_as_of", space=self.space, as_of=as_of, known_at=known_at, tag=None)
        return {row["id"] for row in rows}


# --- comparison ------------------------------------------------------------------------------------
@dataclass
class Tally:
    """Counts across histories (figures); `disagreements` holds every mismatch, as text."""

    histories: int = 0
    events: int = 0
    erasures: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    reads: int = 0
    disagreements: list[str] = field(default_factory=list)

    def compare(self, what: str, got: Any, want: Any) -> None:
        self.reads += 1
        if got != want:
            self.disagreements.append(f"{what}: service {got!r} != model {want!r}")


def _when(value: datetime | None, now: datetime) -> datetime:
    return now if value is None else value


def _lineage(edges: Any) -> set[tuple[str, str, str, datetime | None]]:
    return {(e.type, e.source_id, e.target_id, e.at) for e in edges}


def _records(records: set[Record]) -> set[tuple[str, str, str, datetime | None]]:
    return {(r.type, r.newer, r.older, r.at) for r in records}


def apply_history(
    service: Service, model: TemporalModel, events: list[tuple[Any, ...]], tally: Tally
) -> list[datetime]:
    """Run each event on the service and the model; a write the two answer differently fails at once.
    Returns the record times the service gave (documents and supersessions, erased ones included)."""
    recorded: list[datetime] = []
    for event in events:
        tally.events += 1
        time.sleep(0.002)  # distinct record times, so knownAt can fall between any two events
        if event[0] == "ingest":
            _, k, event_at, city, author = event
            doc_id, text = service.doc_id(k), document_text(city)
            recorded_at = service.ingest(doc_id, text, event_at, author)
            model.ingest(doc_id, text, author, event_at, recorded_at, service.fact_ids(doc_id, text))
            recorded.append(recorded_at)
        elif event[0] == "supersede":
            _, new_k, old_k, at = event
            new, old = service.doc_id(new_k), service.doc_id(old_k)
            refusal = model.supersede_refusal(new, old, at)
            try:
                created = supersede(service.store, service.space, new, old, at, by="temporal-property")
            except GraphmemError as exc:
                got = (type(exc).__name__, getattr(exc, "field", None))
                assert refusal is not None, f"supersede({new}, {old}, {at}) refused by the service: {got}"
                assert got == (refusal.error, refusal.field), f"supersede({new}, {old}, {at}): {got} != {refusal}"
                tally.refusals[f"supersede: {refusal.error} on {refusal.field}"] += 1
                continue
            assert refusal is None, f"supersede({new}, {old}, {at}) accepted; the model refuses it: {refusal}"
            recorded_at = service.link_recorded_at(new, old)
            assert bool(created) == model.supersede(new, old, at, recorded_at), f"supersede({new}, {old}) created"
            recorded.append(recorded_at)
        else:
            doc_id = service.doc_id(event[1])
            assert service.forget is not None
            if not model.exists(doc_id):
                with pytest.raises(NotFound):
                    service.forget(service.store, service.space, id=doc_id, by="temporal-property")
                tally.refusals["forget: NotFound for an erased document"] += 1
                continue
            service.forget(service.store, service.space, id=doc_id, by="temporal-property")
            model.forget(doc_id)
            tally.erasures += 1
    return recorded


def compare_at(
    service: Service, model: TemporalModel, as_of: datetime | None, known_at: datetime | None, tally: Tally
) -> None:
    """Every read at one (asOf, knownAt) pair; None means "now" (the default a caller gets)."""
    now = utc_now()
    a, k = _when(as_of, now), _when(known_at, now)
    where = f"asOf={as_of}, knownAt={known_at}"
    tally.compare(f"episodics({where})", service.listing("Episodic", as_of, known_at), model.valid_units(a, k))
    tally.compare(f"semantics({where})", service.listing("Semantic", as_of, known_at), model.valid_facts(a, k))
    tally.compare(f"facts_as_of({where})", service.facts_as_of(a, k), model.valid_facts(a, k))
    for node_id in [*model.node_ids(), *sorted(model.erased)]:
        try:
            found = provenance(service.store, service.space, node_id, as_of=as_of, known_at=known_at)
        except NotFound:
            tally.compare(f"provenance({node_id}, {where}) found", False, model.known(node_id, k))
            continue
        tally.compare(f"provenance({node_id}, {where}) found", True, model.known(node_id, k))
        if not model.known(node_id, k):
            continue
        tally.compare(
            f"provenance({node_id}, {where}).evidence", {u.id for u in found.evidence}, model.evidence(node_id, k)
        )
        tally.compare(
            f"provenance({node_id}, {where}).lineage",
            _lineage(found.lineage),
            _records(model.lineage(node_id, a, k)),
        )
        tally.compare(
            f"provenance({node_id}, {where}) is the version valid then",
            found.version_at == node_id,
            model.valid(node_id, a, k),
        )


def compare_history(service: Service, model: TemporalModel, tally: Tally) -> None:
    """Each node's version chain, the record times of its links, and the cache a current read uses."""
    for node_id in [*model.node_ids(), *sorted(model.erased)]:
        try:
            found = history(service.store, service.space, node_id)
        except NotFound:
            tally.compare(f"history({node_id}) found", False, model.exists(node_id))
            continue
        tally.compare(f"history({node_id}) found", True, model.exists(node_id))
        if not model.exists(node_id):
            continue
        versions, records = model.history(node_id)
        tally.compare(f"history({node_id}).versions", {v.id for v in found.versions}, versions)
        tally.compare(
            f"history({node_id}).links",
            {(ln.type, ln.newer_id, ln.older_id, ln.at, ln.recorded_at) for ln in found.links},
            {(r.type, r.newer, r.older, r.at, r.recorded_at) for r in records},
        )
        for version in found.versions:
            if not model.exists(version.id):
                continue
            valid_to, status = model.cache(version.id)
            tally.compare(
                f"history({node_id}) cache of {version.id} (valid_to, status)",
                (version.valid_to or FAR_FUTURE, version.status),
                (valid_to, status),
            )


def compare_changes(
    service: Service, model: TemporalModel, windows: list[tuple[datetime, datetime]], tally: Tally
) -> None:
    """`changes` in each [since, until) window: supersessions and added versions, by valid time."""
    for since, until in windows:
        rows = changes(service.store, service.space, since, until)
        got = {(c.change, c.id, c.other_id, c.at) for c in rows if c.label in ("Episodic", "Semantic")}
        tally.compare(f"changes({since}, {until})", got, model.changes(since, until))


def _instants(model: TemporalModel, events_starts: list[datetime], recorded: list[datetime]) -> tuple[list, list]:
    """Candidate asOf values (just before / at each valid-time boundary, and now) and knownAt values (just
    before / at each record time, and now); None is the caller's default "now"."""
    now = utc_now()
    bounds = sorted({*events_starts, *(r.at for r in model.records if r.at <= now)})
    as_ofs: list[datetime | None] = [None, now, *(b - TICK for b in bounds), *bounds]
    known_ats: list[datetime | None] = [None, *(t - TICK for t in recorded), *recorded]
    return as_ofs, known_ats


def run_histories(store: Store, erasures: bool, cases: int, tally: Tally) -> None:
    forget, _ = document_forget()
    base = Settings()
    embedder = HashingEmbedder(384)

    @settings(
        max_examples=cases,
        deadline=None,
        database=None,
        print_blob=True,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(events=histories(erasures), data=st.data())
    def case(events: list[tuple[Any, ...]], data: st.DataObject) -> None:
        service = Service(store, f"test-tp-{uuid.uuid4().hex[:12]}", base, embedder, forget)
        model = TemporalModel()
        before = len(tally.disagreements)
        recorded = apply_history(service, model, events, tally)
        as_ofs, known_ats = _instants(model, [e[2] for e in events if e[0] == "ingest"], sorted(set(recorded)))
        pair = st.tuples(st.sampled_from(as_ofs), st.sampled_from(known_ats))
        drawn = data.draw(st.lists(pair, min_size=PAIRS_PER_HISTORY, max_size=PAIRS_PER_HISTORY), label="pairs")
        for as_of, known_at in [(None, None), (as_ofs[1], None), *drawn]:
            compare_at(service, model, as_of, known_at, tally)
        compare_history(service, model, tally)
        dated = sorted({a for a in as_ofs if a is not None})
        bounds = data.draw(st.lists(st.sampled_from(dated), min_size=2, max_size=4, unique=True), label="windows")
        windows = [(EPOCH - timedelta(days=1), FUTURE + timedelta(days=1))]
        windows += list(zip(sorted(bounds)[::2], sorted(bounds)[1::2], strict=False))
        compare_changes(service, model, windows, tally)
        tally.histories += 1
        found = tally.disagreements[before:]
        assert not found, f"{len(found)} disagreement(s) with the model:\n" + "\n".join(found[:12])

    case()


def _report(name: str, tally: Tally, skipped: str = "") -> None:
    figures = {
        "histories": tally.histories,
        "events": tally.events,
        "erasures": tally.erasures,
        "refused_writes_matched": sum(tally.refusals.values()),
        "refused_writes_by_kind": dict(sorted(tally.refusals.items())),
        "reads_compared": tally.reads,
        "disagreements": len(tally.disagreements),
    }
    if skipped:
        figures["skipped"] = skipped
    print(f"\n{name}: {figures}")
    record_figures(name, figures)


def test_every_read_at_every_asof_and_knownat_agrees_with_the_model(store) -> None:
    tally = Tally()
    try:
        run_histories(store, erasures=False, cases=CASES, tally=tally)
    finally:
        _report("temporal", tally)
    assert tally.histories >= 1 and tally.reads > 0


def test_erasures_agree_with_the_model(store) -> None:
    forget, reason = document_forget()
    if forget is None:
        record_figures("temporal_erasure", {"skipped": reason})
        pytest.skip(reason)
    tally = Tally()
    try:
        run_histories(store, erasures=True, cases=max(1, CASES // 2), tally=tally)
    finally:
        _report("temporal_erasure", tally)
    assert tally.histories >= 1 and tally.reads > 0
