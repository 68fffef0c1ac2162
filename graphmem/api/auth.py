"""Who is calling and what they may touch: Bearer API keys with scopes and spaces.

Every root asks `require(...)` for a scope and a space before it reads or writes anything, so a key
never reaches another space's data. Failed attempts are logged with the client address, never the key.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from graphmem.api.key_table import KeyTable
from graphmem.api.keys import KeyFile, KeyRecord, key_file_path, key_id_of, matching_key, parse_env_records
from graphmem.api.scope import ALL_SPACES, key_space_matches
from graphmem.config import Settings
from graphmem.db import Store
from graphmem.errors import ConfigError, Forbidden, GraphmemError

log = logging.getLogger("graphmem.api.auth")


class Unauthenticated(Forbidden):
    """No key, or a key the service does not know (or that was revoked)."""

    code = "UNAUTHENTICATED"


@dataclass(frozen=True)
class Principal:
    """The caller behind a verified key."""

    key_id: str
    name: str
    scopes: frozenset[str]
    spaces: frozenset[str]

    @classmethod
    def of(cls, key: KeyRecord) -> Principal:
        return cls(key.key_id, key.name, frozenset(key.scopes), frozenset(key.spaces))

    @property
    def all_spaces(self) -> bool:
        return ALL_SPACES in self.spaces

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes or "admin" in self.scopes

    @property
    def has_patterns(self) -> bool:
        """Does any space entry end in `*` (a prefix pattern, or all spaces)?"""
        return any(entry.endswith("*") for entry in self.spaces)

    def may_touch(self, space: str) -> bool:
        return any(key_space_matches(entry, space) for entry in self.spaces)


class KeyRing:
    """The keys a request may present: GRAPHMEM_API_KEYS plus the store GRAPHMEM_API_KEY_STORE chooses.

    Database: each request reads its key's record by key id (one indexed read, no cache), so keys created or
    revoked through any instance count on all of them at once. File: re-read when it changes, so
    `graphmem keys create/revoke` take effect without a restart (one instance per file).
    """

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self._env_keys = parse_env_records(settings.api_keys)
        self._table: KeyTable | None = None
        self._file: KeyFile | None = None
        if settings.key_store == "database":
            if store is None:
                raise ConfigError("GRAPHMEM_API_KEY_STORE=database needs the Neo4j store")
            self._table = KeyTable(store)
        else:
            self._file = KeyFile(key_file_path(settings))
        self._lock = threading.Lock()
        self._file_stamp: tuple[float, int] | None = None
        self._file_keys: list[KeyRecord] = []

    def _file_records(self) -> list[KeyRecord]:
        if self._file is None:
            return []
        with self._lock:
            try:
                stat = self._file.path.stat()
                stamp: tuple[float, int] | None = (stat.st_mtime, stat.st_size)
            except FileNotFoundError:
                stamp = None
            if stamp != self._file_stamp:
                self._file_keys = self._file.load() if stamp else []
                self._file_stamp = stamp
            return self._file_keys

    def verify(self, presented: str) -> KeyRecord | None:
        """The active key matching `presented`, compared in constant time on the digest; None if none does.

        Environment keys are compared first; only a key no environment record matches costs a database read.
        """
        found = matching_key(presented, [*self._env_keys, *self._file_records()])
        if found is not None or self._table is None:
            return found
        key_id = key_id_of(presented)
        record = self._table.find(key_id) if key_id else None
        return matching_key(presented, [record] if record else [])

    def authenticate(self, authorization: str | None, client: str) -> Principal | None:
        """The principal for an `Authorization` header; None when none was sent.

        Raises `Unauthenticated` for a malformed header or an unknown or revoked key.
        """
        if not authorization:
            return None
        scheme, _, token = authorization.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            log.warning("rejected Authorization header from %s: not 'Bearer <key>'", client)
            raise Unauthenticated("the Authorization header must read 'Bearer <API key>'")
        key = self.verify(token)
        if key is None:
            log.warning("rejected unknown or revoked API key from %s", client)
            raise Unauthenticated("unknown or revoked API key")
        return Principal.of(key)


def require(principal: Principal | None, auth_error: GraphmemError | None, scope: str, space: str | None) -> Principal:
    """The caller, if it holds `scope` and may touch `space`; else Unauthenticated / Forbidden (or the error
    that kept the key from being checked, e.g. StoreUnavailable)."""
    if auth_error is not None:
        raise auth_error
    if principal is None:
        raise Unauthenticated("an API key is required: send 'Authorization: Bearer <API key>'")
    if not principal.has_scope(scope):
        raise Forbidden(f"this API key lacks the '{scope}' scope")
    if space is not None and not principal.may_touch(space):
        raise Forbidden(f"this API key may not access space {space!r}")
    return principal
