"""The official Neo4j Browser, served by graphmem at `/browser/` so `make run` users can audit the graph
without Docker or a separate server.

The static app comes from the Maven artifact `org.neo4j.client:neo4j-browser` (its jar holds it under
`browser/`); it is fetched once into the cache and unpacked. The page connects straight to the Bolt port
(Bolt accepts WebSocket connections on the same port), pre-filled through the `connectURL` parameter.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from graphmem.config import Settings
from graphmem.errors import ConfigError


def browser_dir(settings: Settings) -> Path:
    return settings.cache_dir.expanduser() / "neo4j-browser" / settings.browser_version / "browser"


def fetch_browser(settings: Settings) -> Path:
    """Download and unpack the Browser's static files once per version; returns their folder."""
    target = browser_dir(settings)
    if (target / "index.html").is_file():
        return target
    mvn = shutil.which("mvn")
    if mvn is None:
        raise ConfigError("Maven ('mvn') is needed once to fetch Neo4j Browser from Maven Central")
    artifact = f"org.neo4j.client:neo4j-browser:{settings.browser_version}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [mvn, "-q", "-B", "dependency:copy", f"-Dartifact={artifact}", f"-DoutputDirectory={tmp}"],
            capture_output=True,
            text=True,
            timeout=900,
            cwd=tmp,
        )
        jars = list(Path(tmp).glob("neo4j-browser-*.jar"))
        if proc.returncode != 0 or not jars:
            tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-2:])
            raise ConfigError(f"could not fetch {artifact} from Maven Central: {tail}")
        staging = target.parent / "staging"
        shutil.rmtree(staging, ignore_errors=True)
        with zipfile.ZipFile(jars[0]) as jar:
            members = [m for m in jar.namelist() if m.startswith("browser/")]
            jar.extractall(staging, members)
        shutil.rmtree(target, ignore_errors=True)
        (staging / "browser").rename(target)
        shutil.rmtree(staging, ignore_errors=True)
    return target


def browser_routes(settings: Settings, bolt_uri: str) -> list[BaseRoute]:
    """`/browser` (redirects with the Bolt URL filled in) and `/browser/` (the static app), when fetched."""
    folder = browser_dir(settings)
    if not (folder / "index.html").is_file():
        return []

    async def entry(request: Request) -> Response:
        return RedirectResponse(f"/browser/?connectURL={bolt_uri}", status_code=307)

    return [Route("/browser", entry), Mount("/browser", StaticFiles(directory=folder, html=True), name="browser")]
