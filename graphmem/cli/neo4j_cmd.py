"""`graphmem neo4j start|status|stop`: the embedded default, or the server NEO4J_URI names."""

from __future__ import annotations

import argparse
from pathlib import Path

from graphmem.config import Settings, get_settings
from graphmem.db.embedded import EmbeddedNeo4j
from graphmem.db.store import Store
from graphmem.ui.neo4j_browser import fetch_browser


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("neo4j", help="start, check or stop Neo4j")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    start = actions.add_parser("start", help="start the embedded Neo4j; returns when Bolt answers")
    start.add_argument("--port", type=int, help="Bolt port (GRAPHMEM_NEO4J_PORT, default 7687)")
    start.add_argument("--data", type=Path, help="data folder (GRAPHMEM_NEO4J_DATA)")
    start.set_defaults(handler=_start)
    status = actions.add_parser("status", help="print version and URI; exit 1 when unreachable")
    status.set_defaults(handler=_status)
    stop = actions.add_parser("stop", help="stop the embedded Neo4j")
    stop.set_defaults(handler=_stop)
    fetch = actions.add_parser("fetch", help="download the embedded Neo4j's jars and Neo4j Browser into the cache")
    fetch.set_defaults(handler=_fetch)


def _settings(args: argparse.Namespace) -> Settings:
    settings = get_settings()
    updates = {}
    if getattr(args, "port", None):
        updates["neo4j_port"] = args.port
    if getattr(args, "data", None):
        updates["neo4j_data_dir"] = args.data
    return settings.model_copy(update=updates) if updates else settings


def _start(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if not settings.uses_embedded_neo4j:
        print(f"NEO4J_URI is set: using the server at {settings.neo4j_uri} (nothing to start)")
        return _status(args)
    uri = EmbeddedNeo4j(settings).start()
    with Store.from_settings(settings) as store:
        info = store.verify()
    print(f"Neo4j {info.version} ({info.edition}) ready at {uri}")
    return 0


def _status(args: argparse.Namespace) -> int:
    settings = _settings(args)
    uri = settings.neo4j_uri or settings.embedded_uri
    with Store.from_settings(settings) as store:
        try:
            info = store.verify()
        except Exception as exc:
            print(f"Neo4j at {uri} is not reachable: {exc}")
            return 1
    print(f"Neo4j {info.version} ({info.edition}) at {uri}")
    return 0


def _stop(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if not settings.uses_embedded_neo4j:
        print(f"NEO4J_URI is set: graphmem does not manage {settings.neo4j_uri}")
        return 0
    stopped = EmbeddedNeo4j(settings).stop()
    print("embedded Neo4j stopped" if stopped else "embedded Neo4j was not running")
    return 0


def _fetch(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if settings.uses_embedded_neo4j:
        lib = EmbeddedNeo4j(settings).fetch()
        print(f"Neo4j {settings.neo4j_version} jars in {lib}")
    browser = fetch_browser(settings)
    print(f"Neo4j Browser {settings.browser_version} in {browser}")
    return 0
