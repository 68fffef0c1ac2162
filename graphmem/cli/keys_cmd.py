"""`graphmem keys create|list|revoke|ensure-dev|import`: API keys for the GraphQL service.

Keys are shown once, at creation; only their sha256 is kept, in the store GRAPHMEM_API_KEY_STORE chooses: the
database (`ApiKey` nodes, shared by every instance on it; the default with NEO4J_URI) or the key file
(GRAPHMEM_API_KEY_FILE, default api-keys.json in the owner-only GRAPHMEM_SECRETS_DIR; the default with the
embedded server). Either way a running service sees a change at once. With the database, every command first
imports the key file's records (`import`, idempotent), so no key is left behind by the switch.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.private_files import write_private

if TYPE_CHECKING:
    from graphmem.api.keys import KeyStore


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    keys = sub.add_parser("keys", help="manage API keys (scopes read,write,admin; spaces or *)")
    actions = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="mint a key; prints it once")
    create.add_argument("--scopes", required=True, help="comma-separated: read,write,admin")
    create.add_argument("--spaces", required=True, help="comma-separated spaces, or * for all")
    create.add_argument("--name", default="", help="a label to recognise the key by")
    create.set_defaults(handler=_create)
    listing = actions.add_parser("list", help="list keys (never the keys themselves)")
    listing.set_defaults(handler=_list)
    revoke = actions.add_parser("revoke", help="revoke a key by its key id")
    revoke.add_argument("key_id")
    revoke.set_defaults(handler=_revoke)
    dev = actions.add_parser("ensure-dev", help="create a local development key on first run; say where it is")
    dev.add_argument("--output", type=Path, help="where to write the key (default: dev-api-key beside the key file)")
    dev.set_defaults(handler=_ensure_dev)
    imports = actions.add_parser(
        "import", help="copy the key file's keys into the database (GRAPHMEM_API_KEY_STORE=database; idempotent)"
    )
    imports.set_defaults(handler=_import)


@contextmanager
def _key_store(announce: Callable[[str], None] = print) -> Iterator[KeyStore]:
    """The configured key store; with the database, the key file's records imported first."""
    from graphmem.api.key_table import KeyTable, import_key_file, open_key_store
    from graphmem.db import Store

    settings = get_settings()
    if settings.key_store == "file":
        yield open_key_store(settings, None)
        return
    with Store.from_settings(settings) as store:
        table = KeyTable(store)
        report = import_key_file(settings, table)
        if report is not None and (report.imported or report.revoked or report.conflicts):
            announce(f"graphmem: {report.summary()}")
        yield table


def _stderr(line: str) -> None:
    import sys

    print(line, file=sys.stderr)


def _create(args: argparse.Namespace) -> int:
    from graphmem.api.keys import parse_scopes, parse_spaces

    scopes = parse_scopes("--scopes", args.scopes)
    spaces = parse_spaces("--spaces", args.spaces)
    with _key_store(_stderr) as keys:
        secret, record = keys.create(scopes, spaces, args.name)
        print_json({"key": secret, **record.public(), "stored_in": keys.where,
                    "note": "store this key now: only its hash is kept"})  # fmt: skip
    return 0


def _list(args: argparse.Namespace) -> int:
    from graphmem.api.keys import parse_env_records

    with _key_store(_stderr) as keys:
        for key in [*parse_env_records(get_settings().api_keys), *keys.load()]:
            print_json(key.public())
    return 0


def _revoke(args: argparse.Namespace) -> int:
    with _key_store(_stderr) as keys:
        print_json(keys.revoke(args.key_id).public())
    return 0


def _import(args: argparse.Namespace) -> int:
    from graphmem.api.key_table import KeyTable, import_key_file
    from graphmem.api.keys import key_file_path
    from graphmem.db import Store
    from graphmem.errors import ConfigError

    settings = get_settings()
    if settings.key_store != "database":
        raise ConfigError("keys import copies the key file into the database: set GRAPHMEM_API_KEY_STORE=database")
    with Store.from_settings(settings) as store:
        report = import_key_file(settings, KeyTable(store))
    print(f"graphmem: {report.summary()}" if report else f"graphmem: no keys in {key_file_path(settings)}")
    return 0


def _ensure_dev(args: argparse.Namespace) -> int:
    """Idempotent: the first run mints a read,write,admin key for all spaces and writes it to a private
    file; later runs only say where it is (and mint a new one if that key was revoked or lost)."""
    from graphmem.api.keys import key_file_path, matching_key

    output: Path = args.output or key_file_path(get_settings()).with_name("dev-api-key")
    with _key_store() as keys:
        if output.exists():
            existing = output.read_text(encoding="utf-8").strip()
            if matching_key(existing, keys.load()) is not None:
                print(f"graphmem: development API key in {output} (send 'Authorization: Bearer <key>')")
                return 0
        secret, record = keys.create(("admin", "read", "write"), ("*",), name="local development")
    write_private(output, secret + "\n")
    print(f"graphmem: created development API key {record.key_id} (read,write,admin on all spaces) in {keys.where}")
    print(f"graphmem: key in {output} (send 'Authorization: Bearer <key>')")
    return 0
