"""API keys: how they are minted, recorded (hashed) and matched, and the key file.

A key reads `gmk_<key id>_<secret>`; only its sha256 is stored. Keys live in one store that
GRAPHMEM_API_KEY_STORE chooses (`graphmem.api.key_table.open_key_store`): the database (`ApiKey` nodes, see
`graphmem.api.key_table`) or the key file (JSON, GRAPHMEM_API_KEY_FILE, default api-keys.json in
GRAPHMEM_SECRETS_DIR; folder 0700, file 0600); records in GRAPHMEM_API_KEYS count in either case:
`;`-separated `SECRET|scopes|spaces[|name]`, where SECRET is the key itself or `sha256:<hex digest>`, scopes
are `read,write,admin` and spaces are names, `prefix*` patterns or `*` for all.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

from graphmem.api.scope import check_key_space
from graphmem.config import Settings
from graphmem.errors import ConfigError, InvalidInput, NotFound
from graphmem.private_files import move_private, private_dir, write_private
from graphmem.timeutil import iso, utc_now

SCOPES = ("read", "write", "admin")
KEY_PREFIX = "gmk_"
MAX_KEY_ID_CHARS = 64  # minted ids are 8 hex digits; a longer one is never looked up


LEGACY_KEY_DIR = Path("~/.local/share/graphmem")  # the default before GRAPHMEM_SECRETS_DIR
KEY_FILE_NAME = "api-keys.json"
DEV_KEY_NAME = "dev-api-key"


def key_file_path(settings: Settings) -> Path:
    """GRAPHMEM_API_KEY_FILE, else api-keys.json in the owner-only secrets folder; key files left at the
    old default (~/.local/share/graphmem) move there on first use."""
    if settings.api_key_file:
        return settings.api_key_file
    folder = private_dir(settings.secrets_dir.expanduser())
    legacy = LEGACY_KEY_DIR.expanduser()
    for name in (KEY_FILE_NAME, DEV_KEY_NAME):
        move_private(legacy / name, folder / name)
    return folder / KEY_FILE_NAME


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_id_of(presented: str) -> str | None:
    """The key id a presented `gmk_<key id>_<secret>` names (public: it is printed by `keys list`), else None."""
    if not presented.startswith(KEY_PREFIX):
        return None
    key_id, sep, secret = presented[len(KEY_PREFIX) :].partition("_")
    return key_id if sep and key_id and secret and len(key_id) <= MAX_KEY_ID_CHARS else None


@dataclass(frozen=True)
class KeyRecord:
    """One stored key: never the key itself, only its digest, scopes and spaces."""

    key_id: str
    sha256: str
    scopes: tuple[str, ...]
    spaces: tuple[str, ...]
    name: str = ""
    created_at: str | None = None
    revoked_at: str | None = None
    source: str = field(default="file", compare=False)

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def public(self) -> dict[str, object]:
        """What `keys list` shows: everything but the digest."""
        return {
            "key_id": self.key_id,
            "name": self.name,
            "scopes": list(self.scopes),
            "spaces": list(self.spaces),
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
            "source": self.source,
        }


def parse_scopes(field_name: str, text: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    items = text.split(",") if isinstance(text, str) else list(text)
    scopes = tuple(sorted({s.strip().lower() for s in items if s.strip()}))
    if not scopes:
        raise InvalidInput(field_name, f"at least one scope is required ({', '.join(SCOPES)})")
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        raise InvalidInput(field_name, f"unknown scope {unknown[0]!r}; use {', '.join(SCOPES)}")
    return scopes


def parse_spaces(field_name: str, text: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Space entries: names, `*` for all, or `prefix*` patterns (graphmem.api.scope.check_key_space)."""
    items = text.split(",") if isinstance(text, str) else list(text)
    spaces = tuple(sorted({check_key_space(field_name, s.strip()) for s in items if s.strip()}))
    if not spaces:
        raise InvalidInput(field_name, "at least one space (or * for all) is required")
    return spaces


def parse_env_records(text: str | None) -> list[KeyRecord]:
    """Records from GRAPHMEM_API_KEYS (see the module docstring)."""
    keys: list[KeyRecord] = []
    for n, record in enumerate(r.strip() for r in (text or "").split(";")):
        if not record:
            continue
        parts = record.split("|")
        if len(parts) not in (3, 4):
            raise ConfigError(f"GRAPHMEM_API_KEYS record {n + 1}: expected SECRET|scopes|spaces[|name]")
        secret = parts[0].strip()
        digest = secret.removeprefix("sha256:").lower() if secret.startswith("sha256:") else hash_key(secret)
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ConfigError(f"GRAPHMEM_API_KEYS record {n + 1}: sha256: needs a 64-digit hex digest")
        try:
            scopes = parse_scopes("scopes", parts[1])
            spaces = parse_spaces("spaces", parts[2])
        except InvalidInput as exc:
            raise ConfigError(f"GRAPHMEM_API_KEYS record {n + 1}: {exc}") from None
        name = parts[3].strip() if len(parts) == 4 else f"env-{n + 1}"
        keys.append(KeyRecord(f"env{n + 1}", digest, scopes, spaces, name, source="env"))
    return keys


class KeyStore(Protocol):
    """Where `graphmem keys` keeps keys: the database (`KeyTable`) or the key file (`KeyFile`)."""

    @property
    def where(self) -> str: ...

    def load(self) -> list[KeyRecord]: ...

    def create(self, scopes: tuple[str, ...], spaces: tuple[str, ...], name: str = "") -> tuple[str, KeyRecord]: ...

    def revoke(self, key_id: str) -> KeyRecord: ...


class KeyFile:
    """The JSON key file. Writes are atomic (temp file + rename) and keep the file private (0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> list[KeyRecord]:
        if not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return [
                KeyRecord(**{**record, "scopes": tuple(record["scopes"]), "spaces": tuple(record["spaces"])})
                for record in data.get("keys", [])
            ]
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise ConfigError(f"API key file {self.path} is unreadable: {exc}") from None

    def save(self, keys: list[KeyRecord]) -> None:
        records = []
        for key in keys:
            record = asdict(key)
            record.pop("source")
            records.append(record)
        write_private(self.path, json.dumps({"version": 1, "keys": records}, indent=2) + "\n")

    @property
    def where(self) -> str:
        return str(self.path)

    def create(self, scopes: tuple[str, ...], spaces: tuple[str, ...], name: str = "") -> tuple[str, KeyRecord]:
        """Mint a key; returns (the key, shown once, its stored record)."""
        keys = self.load()
        taken = {key.key_id for key in keys}
        secret, record = mint_key(scopes, spaces, name)
        while record.key_id in taken:
            secret, record = mint_key(scopes, spaces, name)
        self.save([*keys, record])
        return secret, record

    def revoke(self, key_id: str) -> KeyRecord:
        keys = self.load()
        for i, key in enumerate(keys):
            if key.key_id == key_id:
                if key.revoked_at is None:
                    keys[i] = KeyRecord(**{**asdict(key), "revoked_at": iso(utc_now())})
                    self.save(keys)
                return keys[i]
        raise NotFound("key_id", f"no key {key_id!r} in {self.path}")


def mint_key(scopes: tuple[str, ...], spaces: tuple[str, ...], name: str = "") -> tuple[str, KeyRecord]:
    """A new random key and its record (digest only); the caller stores the record and shows the key once."""
    key_id = secrets.token_hex(4)
    secret = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    return secret, KeyRecord(key_id, hash_key(secret), scopes, spaces, name, created_at=iso(utc_now()))


def matching_key(presented: str, keys: list[KeyRecord]) -> KeyRecord | None:
    """The active key whose digest equals the presented key's, compared in constant time against all."""
    digest = hash_key(presented)
    found: KeyRecord | None = None
    for key in keys:
        if hmac.compare_digest(key.sha256, digest) and key.active and found is None:
            found = key
    return found
