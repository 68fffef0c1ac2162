"""`graphmem schema install`: constraints and indexes, idempotent."""

from __future__ import annotations

import argparse
from dataclasses import asdict

from graphmem.cli.output import print_json
from graphmem.config import get_settings
from graphmem.db import Store, install_schema
from graphmem.embed import default_embedder


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("schema", help="install constraints and indexes")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    install = actions.add_parser("install", help="create missing constraints and indexes (idempotent)")
    install.set_defaults(handler=_install)


def _install(args: argparse.Namespace) -> int:
    settings = get_settings()
    with Store.from_settings(settings) as store:
        report = install_schema(store, default_embedder().dimensions, settings.vector_quantization)
    print_json(asdict(report))
    return 0
