"""Documents (the Mem++ path, no LLM): each stored whole as one `Episodic` of kind `document`.

Contract of `ingest_documents`:

- Each record: `text` (required, non-empty), optional `id`, `author`, `event_at` (ISO 8601; default: the
  ingest time, and the document is stored `dated: false`, so nothing reads the upload's time as when it
  was written), `source`, `supersedes` (ids of documents in the same space, or earlier in the same
  call, that this one replaces at its `event_at`), `metadata` (a JSON object, stored as JSON text), `space`
  (if given, must equal the call's space), `importance` (the caller's weight in [0, 1], default 1: the
  document's and its facts' importance weight, see graphmem/evolution/importance).
- id = the given id, else `content_id("doc", space, content_hash)` for a document without author and date,
  else `content_id("doc", space, content_hash, author, event_at)`: ids belong to the space, and another author
  or date makes another record.
- *Exact repeats* (the same id with the same text, in the space or earlier in the call) are skipped, counted
  in `skipped`, and report the stored id. The same text under another id (another author or date) is its own
  evidence unit, linked `(new)-[:REPEATS]->(first)` to the first document of the space holding that text; it
  derives no facts of its own: the first one's facts gain it as a second piece of evidence.
- *Bad records* (empty text, wrong types, bad dates, an id already holding other text or naming a node of
  another kind in the space, a `supersedes` id that names no document) are rejected by name
  (`documents[3].text`). A concurrent writer that stores the same id with another text first wins; this call
  then gets the same `Conflict` (the batch's transaction rolls back, so facts always cite their own text).
  By default the rest of the call is stored and each rejection is listed in `summary.errors` (counted in
  `failed`); with `strict=True` the first bad record raises (`InvalidInput`, `Conflict` or `NotFound`, naming
  the field) before anything is written.
- Documents are not grouped under an `Episode`: a call's batch is an accident of how the caller chunked
  an upload, not a unit of meaning, and episodic expansion at read time should not return unrelated
  documents together. A document is its own evidence unit.
- With GRAPHMEM_DERIVE_FACTS (default on) each document's tagged sentences (at most
  GRAPHMEM_MAX_FACTS_PER_DOCUMENT) become `Semantic` facts — `EVIDENCED_BY` the document, tagged,
  `valid_from` = the document's `event_at`, author and `event_at` copied — each linked `SIBLING` to the
  next few facts of the same document.
- Work goes in batches of GRAPHMEM_INGEST_BATCH_SIZE: one embedding call for the batch's documents and
  facts, a few lookups, and one write transaction of batched `UNWIND` statements (supersessions included),
  so a failure leaves nothing of the batch half-written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.config import Settings
from graphmem.db import Store
from graphmem.embed import Embedder
from graphmem.errors import Conflict, GraphmemError, InvalidInput, NotFound
from graphmem.evolution.importance import DEFAULT_WEIGHT, importance_weight
from graphmem.ids import content_hash, content_id
from graphmem.model.nodes import STATUS_ACTIVE
from graphmem.timeutil import FAR_FUTURE, parse_time, utc_now
from graphmem.write.batch import DOCUMENT_SIBLING_BAND, GraphBatch, PendingFact, WriteConflict, caption, write_batch
from graphmem.write.embedding import EVIDENCE, FACTS, CallEmbedder
from graphmem.write.staging import stage_tagged_facts
from graphmem.write.structurers.rules import facts_from_text
from graphmem.write.summary import IngestSummary
from graphmem.write.validation import optional_metadata, optional_text, reject_unreadable, required_text

DOCUMENT_KIND = "document"
DOCUMENT_FIELDS = frozenset(
    {"id", "space", "text", "author", "event_at", "source", "supersedes", "metadata", "kind", "importance"}
)
MAX_SUPERSESSION_RETRIES = 20
Progress = Callable[[int], None]


@dataclass(frozen=True)
class DocumentRecord:
    """A validated document; `index` is its position in the caller's input."""

    index: int
    id: str
    text: str
    content_hash: str
    author: str | None
    event_at: datetime
    source: str | None
    metadata: str | None
    supersedes: tuple[str, ...]
    dated: bool = True
    importance: float = DEFAULT_WEIGHT

    @property
    def where(self) -> str:
        return f"documents[{self.index}]"


def parse_document(index: int, raw: Any, space: str, now: datetime) -> DocumentRecord:
    """Validate one raw record; raises `InvalidInput` naming `documents[index].<field>`."""
    where = f"documents[{index}]"
    reject_unreadable(raw, where)
    if not isinstance(raw, Mapping):
        raise InvalidInput(where, f"must be a JSON object, got {type(raw).__name__}")
    text = required_text(raw, "text", where)
    record_space = raw.get("space")
    if record_space not in (None, "") and record_space != space:
        raise InvalidInput(f"{where}.space", f"{record_space!r} differs from the target space {space!r}")
    given_id = optional_text(raw, "id", where)
    metadata = optional_metadata(raw, where)
    supersedes = raw.get("supersedes") or []
    if not isinstance(supersedes, list) or not all(isinstance(s, str) and s.strip() for s in supersedes):
        raise InvalidInput(f"{where}.supersedes", "must be a list of document ids")
    digest = content_hash(text)
    author = optional_text(raw, "author", where)
    event_at = parse_time(f"{where}.event_at", raw.get("event_at"), default=now)
    dated = raw.get("event_at") not in (None, "")
    identity = (author or "", event_at.isoformat() if dated else "") if author or dated else ()
    doc_id = given_id or content_id("doc", space, digest, *identity)
    if doc_id in supersedes:
        raise InvalidInput(f"{where}.supersedes", "a document cannot supersede itself")
    return DocumentRecord(
        index=index,
        id=doc_id,
        text=text,
        content_hash=digest,
        author=author,
        event_at=event_at,
        source=optional_text(raw, "source", where),
        metadata=metadata,
        supersedes=tuple(dict.fromkeys(s.strip() for s in supersedes)),
        dated=dated,
        importance=importance_weight(raw, where),
    )


class DocumentIngest:
    """One `ingest_documents` call: validation, de-duplication, embedding and batched writes."""

    def __init__(
        self, store: Store, embedder: Embedder, settings: Settings, space: str, *, progress: Progress | None = None
    ) -> None:
        if not isinstance(space, str) or not space.strip():
            raise InvalidInput("space", "a space name is required")
        self.store, self.embedder, self.settings, self.space = store, embedder, settings, space
        self.progress = progress
        self.summary = IngestSummary()
        self.vectors = CallEmbedder(embedder, self.summary, store, space)
        self.now = utc_now()
        # Ids and hashes accepted earlier in this call (for repeats and supersedes across batches).
        self.seen_hashes: dict[str, str] = {}
        self.seen_ids: dict[str, str] = {}
        self.accepted_events: dict[str, datetime] = {}
        # Accepted document id -> the first document holding its text, which it repeats.
        self.repeats: dict[str, str] = {}

    # --- validation ------------------------------------------------------------------------------
    def parse_all(self, documents: Iterable[Any], strict: bool) -> list[DocumentRecord | None]:
        records: list[DocumentRecord | None] = []
        for index, raw in enumerate(documents):
            try:
                records.append(parse_document(index, raw, self.space, self.now))
            except InvalidInput as exc:
                if strict:
                    raise
                self.summary.reject(exc)
                records.append(None)
        return records

    def _reject(self, record: DocumentRecord, exc: GraphmemError, strict: bool) -> None:
        if strict:
            raise exc
        field = getattr(exc, "field", record.where)
        message = getattr(exc, "message", str(exc))
        self.summary.reject(InvalidInput(field, message))

    def _screen(self, records: list[DocumentRecord], strict: bool) -> list[DocumentRecord]:
        """Drop exact repeats (skipped) and records that clash with the space (rejected); returns the rest."""
        holders: dict[str, list[dict[str, Any]]] = {}
        for row in self.summary.timed_db(
            lambda: self.store.read(
                "write/id_holders", space=self.space, ids=list(dict.fromkeys(r.id for r in records))
            )
        ):
            holders.setdefault(row["id"], []).append(row)
        rows = [{"i": n, "hash": r.content_hash} for n, r in enumerate(records)]
        first_with_text = {
            f["i"]: f["same_id"]
            for f in self.summary.timed_db(lambda: self.store.read("write/document_check", space=self.space, rows=rows))
        }
        accepted: list[DocumentRecord] = []
        for n, record in enumerate(records):
            held = holders.get(record.id, [])
            other_kind = next((h["kind"] for h in held if h["kind"] != DOCUMENT_KIND), None)
            stored = next((h["hash"] for h in held if h["kind"] == DOCUMENT_KIND), None) or self.seen_ids.get(record.id)
            self.summary.ids[record.index] = None
            if other_kind is not None:
                self._reject(record, id_names_other_kind(f"{record.where}.id", record.id, other_kind), strict)
            elif stored not in (None, record.content_hash):
                self._reject(record, id_holds_other_text(record), strict)
            elif stored is not None:
                self.summary.skipped += 1
                self.summary.ids[record.index] = record.id
            else:
                first = first_with_text.get(n) or self.seen_hashes.get(record.content_hash)
                if first is not None:
                    self.repeats[record.id] = first
                self.seen_hashes.setdefault(record.content_hash, record.id)
                self.seen_ids[record.id] = record.content_hash
                accepted.append(record)
        return self._check_supersedes(accepted, strict)

    def _check_supersedes(self, records: list[DocumentRecord], strict: bool) -> list[DocumentRecord]:
        targets = sorted({t for r in records for t in r.supersedes})
        if not targets:
            return records
        existing = {
            row["id"]: row["valid_from"]
            for row in self.summary.timed_db(
                lambda: self.store.read("write/episodic_existing", space=self.space, ids=targets)
            )
        }
        for record in records:
            self.accepted_events[record.id] = record.event_at
        kept: list[DocumentRecord] = []
        for record in records:
            error: GraphmemError | None = None
            for j, target in enumerate(record.supersedes):
                began = existing.get(target) or self.accepted_events.get(target)
                if began is None:
                    error = NotFound(
                        f"{record.where}.supersedes[{j}]", f"no document {target!r} in space {self.space!r}"
                    )
                    break
                began = began.to_native() if hasattr(began, "to_native") else began
                if record.event_at < began:
                    error = InvalidInput(
                        f"{record.where}.event_at",
                        f"{record.event_at.isoformat()} is before {target!r} began ({began.isoformat()})",
                    )
                    break
            if error is None:
                kept.append(record)
            else:
                self.accepted_events.pop(record.id, None)
                self._reject(record, error, strict)
        return kept

    # --- compile and write -----------------------------------------------------------------------
    def _compile(self, records: list[DocumentRecord]) -> GraphBatch:
        batch = GraphBatch()
        facts: list[PendingFact] = []
        if self.settings.derive_facts and self.settings.max_facts_per_document:
            for record in records:
                if record.id in self.repeats:  # shares the facts of the document it repeats
                    continue
                drafts = facts_from_text(record.text, max_facts=self.settings.max_facts_per_document, titles=True)
                facts.extend(
                    PendingFact(d, record.id, record.author, record.event_at, record.id, k, record.importance)
                    for k, d in enumerate(drafts)
                )
        fact_texts = [f.draft.text for f in facts]
        vectors = self.vectors.embed(
            [r.text for r in records] + fact_texts,
            [EVIDENCE] * len(records) + [FACTS] * len(facts),
            known=self.vectors.stored_facts(fact_texts),
        )
        doc_vectors, fact_vectors = vectors[: len(records)], vectors[len(records) :]
        for record, vector in zip(records, doc_vectors, strict=True):
            batch.episodics.append({"id": record.id, "props": self._document_props(record, vector)})
            batch.supersessions.extend(
                {
                    "new_id": record.id,
                    "old_id": old,
                    "at": record.event_at,
                    "reason": None,
                    "by": record.author,
                    "kind": DOCUMENT_KIND,
                }
                for old in record.supersedes
            )
            if record.id in self.repeats:
                batch.repeats.append({"from": record.id, "to": self.repeats[record.id]})
        stage_tagged_facts(
            batch,
            self.vectors,
            self.space,
            facts,
            fact_vectors,
            self.settings.tag_merge_similarity,
            self.now,
            band=DOCUMENT_SIBLING_BAND,
        )
        return batch

    def _document_props(self, record: DocumentRecord, vector: list[float]) -> dict[str, Any]:
        day = record.event_at.date().isoformat()
        return {
            "kind": DOCUMENT_KIND,
            "text": record.text,
            "author": record.author,
            "source": record.source,
            "metadata": record.metadata,
            "content_hash": record.content_hash,
            "event_at": record.event_at,
            "dated": record.dated,
            "importance": record.importance,
            "valid_from": record.event_at,
            "valid_to": FAR_FUTURE,
            "status": STATUS_ACTIVE,
            "recorded_at": self.now,
            "expired_at": FAR_FUTURE,
            "embedding": vector,
            "caption": caption(f"{day} {record.author or ''}: {record.text}".replace(" :", ":")),
        }

    def _write(self, records: list[DocumentRecord], strict: bool) -> None:
        """Write one batch; a supersession the graph refuses rejects its record and the batch is retried."""
        for _ in range(MAX_SUPERSESSION_RETRIES):
            if not records:
                return
            batch = self._compile(records)
            try:
                created, rels = self._write_batch(batch)
            except WriteConflict as exc:  # another writer stored one of these ids with other text first
                losers = [r for r in records if r.id in exc.ids]
                if not losers:
                    raise
                for record in losers:
                    self.seen_ids.pop(record.id, None)
                    self._reject(record, id_holds_other_text(record), strict)
                    self.summary.ids[record.index] = None
                records = [r for r in records if r.id not in exc.ids]
                for record in records:  # a repeat of a loser derives its own facts
                    if self.repeats.get(record.id) in exc.ids:
                        del self.repeats[record.id]
                continue
            except (InvalidInput, NotFound, Conflict) as exc:
                culprit = self._supersession_culprit(batch, records, exc)
                if culprit is None or strict:
                    raise
                self._reject(culprit, exc, strict=False)
                self.summary.ids[culprit.index] = None
                records = [r for r in records if r is not culprit]
                continue
            for label, n in created.items():
                self.summary.count_created(label, n)
            self.summary.relationships += rels
            for record in records:
                self.summary.ids[record.index] = record.id
            return

    def _write_batch(self, batch: GraphBatch) -> tuple[dict[str, int], int]:
        """One managed transaction (retried whole on transient errors) for the batch."""
        return self.summary.timed_db(
            lambda: self.store.write_transaction(lambda tx: write_batch(self.store, tx, self.space, batch))
        )

    @staticmethod
    def _supersession_culprit(
        batch: GraphBatch, records: list[DocumentRecord], exc: GraphmemError
    ) -> DocumentRecord | None:
        field = getattr(exc, "field", "")
        index = 0
        if field.startswith("rows["):
            index = int(field[5 : field.index("]")])
        elif len(batch.supersessions) != 1:
            return None
        if index >= len(batch.supersessions):
            return None
        new_id = batch.supersessions[index]["new_id"]
        return next((r for r in records if r.id == new_id), None)

    def run(self, documents: Iterable[Any], *, strict: bool = False) -> IngestSummary:
        parsed = self.parse_all(documents, strict)
        self.summary.ids = [None] * len(parsed)
        valid = [r for r in parsed if r is not None]
        done = len(parsed) - len(valid)
        if self.progress and done:
            self.progress(done)
        size = self.settings.ingest_batch_size
        if strict:  # every record is screened before anything is written
            screened = [
                r for start in range(0, len(valid), size) for r in self._screen(valid[start : start + size], True)
            ]
            for start in range(0, len(screened), size):
                self._write(screened[start : start + size], True)
            if self.progress:
                self.progress(len(valid))
            return self.summary.finish()
        for start in range(0, len(valid), size):
            chunk = valid[start : start + size]
            self._write(self._screen(chunk, False), False)
            if self.progress:
                self.progress(len(chunk))
        return self.summary.finish()


def id_holds_other_text(record: DocumentRecord) -> Conflict:
    return Conflict(
        f"{record.where}.id",
        f"{record.id!r} already holds a different text; store the new version under a new id with `supersedes`",
    )


def id_names_other_kind(field: str, node_id: str, kind: str) -> Conflict:
    """One id, one node within a space: an id already naming a node of another kind is refused."""
    return Conflict(field, f"{node_id!r} already names a {kind} in this space; choose another id")


def ingest_documents(
    store: Store,
    embedder: Embedder,
    settings: Settings,
    space: str,
    documents: Iterable[Any],
    *,
    strict: bool = False,
    progress: Progress | None = None,
) -> IngestSummary:
    """Store documents whole (see the module docstring for the contract); returns the summary."""
    return DocumentIngest(store, embedder, settings, space, progress=progress).run(documents, strict=strict)
