"""`graphmem keys create|list|revoke|ensure-dev`: API keys for the GraphQL service.

Keys are shown once, at creation; the key file keeps only their sha256 (GRAPHMEM_API_KEY_FILE, default
api-keys.json in the owner-only GRAPHMEM_SECRETS_DIR). The running service re-reads the file when it changes.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.private_files import write_private

if TYPE_CHECKING:
    from graphmem.api.keys import KeyFile


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


def _key_file() -> KeyFile:
    from graphmem.api.keys import KeyFile, key_file_path

    return KeyFile(key_file_path(get_settings()))


def _create(args: argparse.Namespace) -> int:
    from graphmem.api.keys import parse_scopes, parse_spaces

    scopes = parse_scopes("--scopes", args.scopes)
    spaces = parse_spaces("--spaces", args.spaces)
    key_file = _key_file()
    secret, record = key_file.create(scopes, spaces, args.name)
    print_json({"key": secret, **record.public(), "key_file": str(key_file.path),
                "note": "store this key now: only its hash is kept"})  # fmt: skip
    return 0


def _list(args: argparse.Namespace) -> int:
    from graphmem.api.keys import parse_env_records

    for key in [*parse_env_records(get_settings().api_keys), *_key_file().load()]:
        print_json(key.public())
    return 0


def _revoke(args: argparse.Namespace) -> int:
    record = _key_file().revoke(args.key_id)
    print_json(record.public())
    return 0


def _ensure_dev(args: argparse.Namespace) -> int:
    """Idempotent: the first run mints a read,write,admin key for all spaces and writes it to a private
    file; later runs only say where it is (and mint a new one if that key was revoked or lost)."""
    from graphmem.api.keys import matching_key

    key_file = _key_file()
    output: Path = args.output or key_file.path.with_name("dev-api-key")
    if output.exists():
        existing = output.read_text(encoding="utf-8").strip()
        if matching_key(existing, key_file.load()) is not None:
            print(f"graphmem: development API key in {output} (send 'Authorization: Bearer <key>')")
            return 0
    secret, record = key_file.create(("admin", "read", "write"), ("*",), name="local development")
    write_private(output, secret + "\n")
    print(f"graphmem: created development API key {record.key_id} (read,write,admin on all spaces)")
    print(f"graphmem: key in {output} (send 'Authorization: Bearer <key>')")
    return 0
