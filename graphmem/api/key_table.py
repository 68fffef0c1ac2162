"""API keys in Neo4j: `ApiKey` nodes outside every space, shared by every service instance on the database.

Only digests are stored. A request costs one read by key id through the `api_key_id` uniqueness constraint's
index, with no cache, so a key created or revoked through any instance counts on every other at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import Any

from neo4j.exceptions import ConstraintError

from graphmem.api.keys import KeyFile, KeyRecord, KeyStore, key_file_path, mint_key
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.errors import ConfigError, NotFound
from graphmem.timeutil import iso, utc_now

log = logging.getLogger("graphmem.api.keys")

MINT_ATTEMPTS = 5  # key ids are 32 random bits: a taken one is rare, five in a row never happens


def _record(row: dict[str, Any]) -> KeyRecord:
    return KeyRecord(
        key_id=row["key_id"],
        sha256=row["sha256"],
        scopes=tuple(row["scopes"]),
        spaces=tuple(row["spaces"]),
        name=row["name"] or "",
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
        source="database",
    )


class KeyTable:
    """The database key store (`graphmem.api.keys.KeyStore`); queries in `cypher/keys/`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def where(self) -> str:
        return f"the database at {self.store.uri}"

    def find(self, key_id: str) -> KeyRecord | None:
        """The key with this id, revoked or not; one indexed read."""
        rows = self.store.read("keys/find", key_id=key_id)
        return _record(rows[0]) if rows else None

    def load(self) -> list[KeyRecord]:
        return [_record(row) for row in self.store.read("keys/list")]

    def create(self, scopes: tuple[str, ...], spaces: tuple[str, ...], name: str = "") -> tuple[str, KeyRecord]:
        """Mint a key and store its record; returns (the key, shown once, the record)."""
        for _ in range(MINT_ATTEMPTS):
            secret, record = mint_key(scopes, spaces, name)
            params = {
                "key_id": record.key_id,
                "sha256": record.sha256,
                "scopes": list(scopes),
                "spaces": list(spaces),
                "key_name": name,
                "created_at": record.created_at,
            }
            try:
                if self.store.write("keys/create", **params):
                    return secret, replace(record, source="database")
            except ConstraintError:  # another instance took the id between the check and the create
                continue
        raise RuntimeError(f"no free key id after {MINT_ATTEMPTS} attempts")

    def revoke(self, key_id: str) -> KeyRecord:
        rows = self.store.write("keys/revoke", key_id=key_id, now=iso(utc_now()))
        if not rows:
            raise NotFound("key_id", f"no key {key_id!r} in {self.where}")
        return _record(rows[0])


def open_key_store(settings: Settings, store: Store | None) -> KeyStore:
    """The store GRAPHMEM_API_KEY_STORE chooses (`Settings.key_store`); the database needs `store`."""
    if settings.key_store == "file":
        return KeyFile(key_file_path(settings))
    if store is None:
        raise ConfigError("GRAPHMEM_API_KEY_STORE=database needs the Neo4j store")
    return KeyTable(store)


@dataclass
class KeyImport:
    """What importing a key file did: key ids by outcome."""

    source: str
    imported: list[str] = field(default_factory=list)
    revoked: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"API keys from {self.source}: {len(self.imported)} imported into the database, "
            f"{len(self.revoked)} revocations carried over, {len(self.present)} already there"
            + (f", {len(self.conflicts)} NOT imported (key id held by another key: {', '.join(self.conflicts)})"
               if self.conflicts else "")
        )  # fmt: skip


def import_key_file(settings: Settings, table: KeyTable) -> KeyImport | None:
    """Copy the key file's records into the database (idempotent; None when there is no file).

    A key id already in the database keeps its database record (a revocation in the file still applies), so
    running it again changes nothing; a key id held there by another digest is reported, never overwritten.
    The file is left in place, unused while the database holds the keys.
    """
    key_file = KeyFile(key_file_path(settings))
    records = key_file.load()
    if not records:
        return None
    report = KeyImport(str(key_file.path))
    unique: dict[str, KeyRecord] = {}
    for record in records:
        if record.key_id in unique:
            report.conflicts.append(record.key_id)
        else:
            unique[record.key_id] = record
    keys = [
        {
            "key_id": r.key_id,
            "sha256": r.sha256,
            "scopes": list(r.scopes),
            "spaces": list(r.spaces),
            "name": r.name,
            "created_at": r.created_at or iso(utc_now()),
            "revoked_at": r.revoked_at,
        }
        for r in unique.values()
    ]
    for row in table.store.write("keys/import", keys=keys):
        getattr(report, {"conflict": "conflicts"}.get(row["outcome"], row["outcome"])).append(row["key_id"])
    if report.conflicts:
        log.warning("%s", report.summary())
    return report


def prepare_key_store(settings: Settings, store: Store) -> str:
    """At service start: with the database holding the keys, import the key file first; returns a line saying
    where this instance reads keys."""
    if settings.key_store == "file":
        return f"API keys: the key file {key_file_path(settings)} (GRAPHMEM_API_KEY_STORE=file: this instance only)"
    report = import_key_file(settings, KeyTable(store))
    line = f"API keys: the database (GRAPHMEM_API_KEY_STORE={settings.api_key_store}, shared by every instance)"
    return f"{line}; {report.summary()}" if report else line
