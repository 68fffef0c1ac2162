"""`graphmem serve` and `graphmem export-schema`."""

from __future__ import annotations

import argparse
from pathlib import Path

from graphmem.config import get_settings


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="serve GraphQL at /graphql, /healthz and /metrics")
    serve.add_argument("--host", help="bind address (GRAPHMEM_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (GRAPHMEM_PORT, default 8000)")
    serve.add_argument("--no-schema-install", action="store_true", help="skip installing constraints/indexes")
    serve.set_defaults(handler=_serve)
    export = sub.add_parser("export-schema", help="print the GraphQL SDL (schema.graphql must equal it)")
    export.add_argument("--output", type=Path, help="write to FILE instead of stdout")
    export.set_defaults(handler=_export)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from graphmem.api import Services, create_app
    from graphmem.api.key_table import prepare_key_store
    from graphmem.db import Store, install_schema
    from graphmem.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_format, settings.log_level)
    store = Store.from_settings(settings)
    services = Services(settings=settings, store=store)
    if not args.no_schema_install:
        report = install_schema(store, services.embedder.dimensions, settings.vector_quantization)
        print(f"schema ready on Neo4j {report.server_version} ({report.dimensions}-d vectors)")
    runtime = getattr(services.embedder, "query_runtime", None)
    if runtime:  # an operator sees whether questions take the fast path
        print(f"embedder {services.embedder.name}: questions embedded in {runtime}")
    print(prepare_key_store(settings, store))
    host = args.host or settings.host
    port = args.port or settings.port
    print(f"graphmem serving GraphQL at http://{host}:{port}/graphql")
    uvicorn.run(
        create_app(services),
        host=host,
        port=port,
        log_level="warning",
        timeout_keep_alive=int(settings.keep_alive_s),
    )
    return 0


def export_sdl() -> str:
    from graphmem.api.schema import schema

    return schema.as_str() + "\n"


def _export(args: argparse.Namespace) -> int:
    sdl = export_sdl()
    if args.output:
        args.output.write_text(sdl, encoding="utf-8")
    else:
        print(sdl, end="")
    return 0
