"""The provenance explorer at `/explorer/`: static files shipped in the package (no CDN, no build step)."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

EXPLORER_DIR = Path(__file__).with_name("explorer")


def explorer_routes() -> list[BaseRoute]:
    return [Mount("/explorer", StaticFiles(directory=EXPLORER_DIR, html=True), name="explorer")]
