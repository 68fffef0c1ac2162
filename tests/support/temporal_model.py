"""The reference model of graphmem's temporal semantics: plain Python over a list of events, no database.

It is the specification the property test (tests/integration/test_temporal_property.py) holds the real
service to. A node is valid at valid time `as_of` as the memory knew it at record time `known_at` iff

    valid_from <= as_of  AND  recorded_at <= known_at
    AND no SUPERSEDES / MERGED_FROM record into it with record.recorded_at <= known_at and record.at <= as_of
    AND (a derived node with evidence units => at least one of its units is valid at (as_of, known_at)).

The cache a current read uses (`valid_to`, `status`) is derived from the records that exist now:
valid_to = min(at of the closing records, and for a derived node with units max(valid_to of its units)),
far future if none; status = merged | superseded (valid_to before far future) | active.
Erasure deletes nodes and the records that touch them; it is not versioned (gone for every known_at).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

FAR_FUTURE = datetime(9999, 12, 31, tzinfo=UTC)
SUPERSEDES = "SUPERSEDES"
MERGED_FROM = "MERGED_FROM"


@dataclass(frozen=True)
class Unit:
    """An evidence unit (here a document): valid from its event time, known from its record time."""

    id: str
    text: str
    author: str | None
    valid_from: datetime
    recorded_at: datetime


@dataclass(frozen=True)
class Fact:
    """A derived Semantic fact: it holds while some evidence unit it rests on holds."""

    id: str
    evidence: frozenset[str]
    valid_from: datetime
    recorded_at: datetime


@dataclass(frozen=True)
class Record:
    """A closing record `(newer)-[type {at, recorded_at}]->(older)`."""

    type: str
    newer: str
    older: str
    at: datetime
    recorded_at: datetime


@dataclass(frozen=True)
class Refusal:
    """What the service must answer to a write the semantics refuse: the error class and its field."""

    error: str
    field: str


@dataclass
class TemporalModel:
    """Apply events in the order the service saw them; ask what any read must return."""

    units: dict[str, Unit] = field(default_factory=dict)
    facts: dict[str, Fact] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)
    erased: set[str] = field(default_factory=set)

    # --- events ----------------------------------------------------------------------------------
    def ingest(
        self,
        id: str,
        text: str,
        author: str | None,
        event_at: datetime,
        recorded_at: datetime,
        fact_ids: tuple[str, ...] = (),
    ) -> None:
        """A document stored at `recorded_at`, valid from `event_at`, deriving `fact_ids` (evidenced by it)."""
        self.units[id] = Unit(id, text, author, event_at, recorded_at)
        for fact_id in fact_ids:
            known = self.facts.get(fact_id)
            if known is None:
                self.facts[fact_id] = Fact(fact_id, frozenset({id}), event_at, recorded_at)
            else:
                self.facts[fact_id] = replace(known, evidence=known.evidence | {id})

    def supersede_refusal(self, new: str, old: str, at: datetime) -> Refusal | None:
        """The refusal `supersede(new, old, at)` must meet, or None when it is accepted."""
        if new == old:
            return Refusal("Conflict", "old_id")
        for side, node_id in (("new_id", new), ("old_id", old)):
            if not self.exists(node_id):
                return Refusal("NotFound", side)
        if (new in self.units) != (old in self.units):
            return Refusal("InvalidInput", "old_id")
        if at < self.valid_from(old):
            return Refusal("InvalidInput", "at")
        if new in self._reachable(old):
            return Refusal("Conflict", "new_id")
        return None

    def supersede(self, new: str, old: str, at: datetime, recorded_at: datetime) -> bool:
        """Record `new` superseding `old` from `at`; linking the same pair again changes nothing (False)."""
        if any(r.type == SUPERSEDES and r.newer == new and r.older == old for r in self.records):
            return False
        self.records.append(Record(SUPERSEDES, new, old, at, recorded_at))
        return True

    def forget(self, unit_id: str) -> set[str]:
        """Erase a document: it, the facts resting only on it, and every record touching them. Returns ids."""
        removed = {unit_id}
        for fact in list(self.facts.values()):
            if unit_id in fact.evidence:
                rest = fact.evidence - {unit_id}
                if rest:
                    self.facts[fact.id] = Fact(fact.id, rest, fact.valid_from, fact.recorded_at)
                else:
                    removed.add(fact.id)
        for node_id in removed:
            self.units.pop(node_id, None)
            self.facts.pop(node_id, None)
        self.records = [r for r in self.records if r.newer not in removed and r.older not in removed]
        self.erased |= removed
        return removed

    # --- what exists -----------------------------------------------------------------------------
    def exists(self, node_id: str) -> bool:
        return node_id in self.units or node_id in self.facts

    def node_ids(self) -> list[str]:
        return sorted(self.units) + sorted(self.facts)

    def valid_from(self, node_id: str) -> datetime:
        node = self.units.get(node_id) or self.facts[node_id]
        return node.valid_from

    def recorded_at(self, node_id: str) -> datetime:
        node = self.units.get(node_id) or self.facts[node_id]
        return node.recorded_at

    def known(self, node_id: str, known_at: datetime) -> bool:
        """The node exists (not erased) and was recorded by `known_at`."""
        return self.exists(node_id) and self.recorded_at(node_id) <= known_at

    def evidence(self, node_id: str, known_at: datetime) -> set[str]:
        """The evidence units a node shows in its provenance: itself for a unit, its units for a fact."""
        if node_id in self.units:
            return {node_id}
        return {u for u in self.facts[node_id].evidence if u in self.units and self.units[u].recorded_at <= known_at}

    # --- validity --------------------------------------------------------------------------------
    def valid(self, node_id: str, as_of: datetime, known_at: datetime) -> bool:
        """valid(n, as_of, known_at) as the semantics define it."""
        if not self.exists(node_id):
            return False
        if self.valid_from(node_id) > as_of or self.recorded_at(node_id) > known_at:
            return False
        if any(r.older == node_id and r.recorded_at <= known_at and r.at <= as_of for r in self.records):
            return False
        fact = self.facts.get(node_id)
        if fact is not None and fact.evidence:
            return any(self.valid(u, as_of, known_at) for u in fact.evidence if u in self.units)
        return True

    def valid_units(self, as_of: datetime, known_at: datetime) -> set[str]:
        return {u for u in self.units if self.valid(u, as_of, known_at)}

    def valid_facts(self, as_of: datetime, known_at: datetime) -> set[str]:
        return {f for f in self.facts if self.valid(f, as_of, known_at)}

    def cache(self, node_id: str) -> tuple[datetime, str]:
        """The cached (valid_to, status) a current read filters on, from the records that exist now."""
        closing = [r for r in self.records if r.older == node_id]
        ends = [r.at for r in closing]
        fact = self.facts.get(node_id)
        if fact is not None and fact.evidence:
            ends.append(max(self.cache(u)[0] for u in fact.evidence))
        valid_to = min(ends, default=FAR_FUTURE)
        if any(r.type == MERGED_FROM for r in closing):
            return valid_to, "merged"
        return valid_to, "superseded" if valid_to < FAR_FUTURE else "active"

    # --- version chains --------------------------------------------------------------------------
    def _reachable(self, start: str) -> set[str]:
        """Versions `start` supersedes, directly or through older ones (SUPERSEDES only)."""
        seen: set[str] = set()
        frontier = [start]
        while frontier:
            node = frontier.pop()
            for r in self.records:
                if r.type == SUPERSEDES and r.newer == node and r.older not in seen:
                    seen.add(r.older)
                    frontier.append(r.older)
        return seen

    def _component(self, start: str, records: list[Record]) -> tuple[set[str], set[Record]]:
        nodes, edges = {start}, set()
        changed = True
        while changed:
            changed = False
            for r in records:
                if r.newer in nodes or r.older in nodes:
                    edges.add(r)
                    if not {r.newer, r.older} <= nodes:
                        nodes |= {r.newer, r.older}
                        changed = True
        return nodes, edges

    def history(self, node_id: str) -> tuple[set[str], set[Record]]:
        """Every version linked to `node_id` by records in either direction, and those records."""
        return self._component(node_id, self.records)

    def lineage(self, node_id: str, as_of: datetime, known_at: datetime) -> set[Record]:
        """The records around `node_id` reachable through records dated by `as_of` and recorded by `known_at`."""
        seen = [r for r in self.records if r.at <= as_of and r.recorded_at <= known_at]
        return self._component(node_id, seen)[1]

    def changes(self, since: datetime, until: datetime) -> set[tuple[str, str, str | None, datetime]]:
        """(change, id, other_id, at) with since <= at < until: supersessions and added versions."""
        out: set[tuple[str, str, str | None, datetime]] = set()
        for r in self.records:
            if since <= r.at < until:
                out.add(("superseded" if r.type == SUPERSEDES else "merged", r.newer, r.older, r.at))
        for node_id in self.node_ids():
            start = self.valid_from(node_id)
            merged = any(r.type == MERGED_FROM and r.newer == node_id for r in self.records)
            if since <= start < until and not merged:
                out.add(("added", node_id, None, start))
        return out
