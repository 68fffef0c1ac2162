"""GraphiQL that works offline: its assets come from npm once (`python -m graphmem.api.graphiql fetch`,
run by `make graphiql`) into GRAPHMEM_CACHE_DIR/graphiql and are served by the app itself, because
strawberry's built-in page loads React and GraphiQL from a CDN and is blank without internet."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

from graphmem.config import Settings, get_settings

# served name -> (npm package@version, path inside its tarball)
ASSETS: dict[str, tuple[str, str]] = {
    "react.production.min.js": ("react@18.3.1", "package/umd/react.production.min.js"),
    "react-dom.production.min.js": ("react-dom@18.3.1", "package/umd/react-dom.production.min.js"),
    "graphiql.min.js": ("graphiql@3.9.0", "package/graphiql.min.js"),
    "graphiql.min.css": ("graphiql@3.9.0", "package/graphiql.min.css"),
}
ASSET_PATH = "/graphql/assets"

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>graphmem GraphiQL</title>
  <link rel="stylesheet" href="{assets}/graphiql.min.css">
  <style>body {{ margin: 0; height: 100vh; }} #graphiql {{ height: 100vh; }}</style>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="{assets}/react.production.min.js"></script>
  <script src="{assets}/react-dom.production.min.js"></script>
  <script src="{assets}/graphiql.min.js"></script>
  <script>
    const fetcher = GraphiQL.createFetcher({{ url: window.location.pathname }});
    const headers = JSON.stringify({{ Authorization: "Bearer <your API key: graphmem keys ensure-dev>" }}, null, 2);
    ReactDOM.createRoot(document.getElementById("graphiql")).render(
      React.createElement(GraphiQL, {{ fetcher, defaultHeaders: headers, defaultEditorToolsVisibility: true }})
    );
  </script>
</body>
</html>
"""

MISSING = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>graphmem GraphiQL</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>GraphiQL is not installed</h1>
<p>Its assets are fetched once from npm and then served locally (no CDN, works offline):</p>
<pre>make graphiql</pre>
<p>(or <code>.venv/bin/python -m graphmem.api.graphiql fetch</code>). GraphQL itself works without it:
POST queries to this URL with <code>Authorization: Bearer &lt;key&gt;</code>.</p>
</body></html>
"""


def assets_dir(settings: Settings) -> Path:
    return settings.cache_dir / "graphiql"


def assets_installed(settings: Settings) -> bool:
    return all((assets_dir(settings) / name).is_file() for name in ASSETS)


def graphiql_page(settings: Settings) -> HTMLResponse:
    if not assets_installed(settings):
        return HTMLResponse(MISSING)
    return HTMLResponse(PAGE.format(assets=ASSET_PATH))


def asset_endpoint(settings: Settings) -> Callable[[Request], Awaitable[Response]]:
    """A route handler serving only the known asset names (no path from the client reaches the disk)."""

    async def serve(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS or not (assets_dir(settings) / name).is_file():
            return PlainTextResponse("not found", status_code=404)
        media = "text/css" if name.endswith(".css") else "text/javascript"
        return FileResponse(assets_dir(settings) / name, media_type=media, headers={"cache-control": "max-age=86400"})

    return serve


def fetch_assets(dest: Path) -> list[Path]:
    """`npm pack` the pinned packages (registry integrity checked by npm) and keep only the served files."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("graphmem: npm is needed once to fetch GraphiQL's assets (or skip GraphiQL)")
    dest.mkdir(parents=True, exist_ok=True)
    packages = sorted({package for package, _ in ASSETS.values()})
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([npm, "pack", "--silent", *packages], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        written = []
        for name, (package, member) in ASSETS.items():
            base, _, version = package.rpartition("@")
            with tarfile.open(Path(tmp) / f"{base}-{version}.tgz") as tar:
                source = tar.extractfile(member)
                if source is None:
                    raise SystemExit(f"graphmem: {member} missing from {package}")
                (dest / name).write_bytes(source.read())
                written.append(dest / name)
    return written


def main(argv: list[str]) -> int:
    if argv[:1] != ["fetch"]:
        print("usage: python -m graphmem.api.graphiql fetch", file=sys.stderr)
        return 2
    dest = assets_dir(get_settings())
    if assets_installed(get_settings()):
        print(f"graphmem: GraphiQL assets already in {dest}")
        return 0
    for path in fetch_assets(dest):
        print(f"graphmem: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
