"""GraphiQL renders with no internet: a real headless Chromium, every host but 127.0.0.1 unresolvable,
loads /graphql from a real uvicorn server and must end up with a working GraphiQL editor in the DOM."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from graphmem.api import Services, create_app
from graphmem.api.graphiql import assets_installed
from graphmem.config import Settings
from graphmem.embed.hashing import HashingEmbedder

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def served(store, tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    settings = Settings(GRAPHMEM_API_KEY_FILE=tmp_path / "keys.json")
    app = create_app(Services(settings=settings, store=store, _embedder=HashingEmbedder(384)))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(base + "/metrics", timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    yield base, settings
    server.should_exit = True
    thread.join(timeout=10)


def test_graphiql_page_uses_only_local_assets(served: tuple[str, Settings]) -> None:
    base, settings = served
    page = httpx.get(base + "/graphql", headers={"accept": "text/html"})
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "unpkg.com" not in page.text and "cdn" not in page.text.lower() and "https://" not in page.text
    if not assets_installed(settings):
        assert "make graphiql" in page.text
        return
    for name in ("graphiql.min.js", "graphiql.min.css", "react.production.min.js"):
        assert httpx.get(f"{base}/graphql/assets/{name}").status_code == 200
    assert httpx.get(f"{base}/graphql/assets/..%2Fkeys.json").status_code == 404


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
def test_graphiql_renders_offline_in_a_browser(served: tuple[str, Settings], tmp_path: Path) -> None:
    base, settings = served
    if not assets_installed(settings):
        pytest.skip("GraphiQL assets not installed (make graphiql)")
    result = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}",
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--virtual-time-budget=15000",
         "--dump-dom", base + "/graphql"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "graphiql-container" in result.stdout, result.stdout[-2000:] + result.stderr[-2000:]
    assert "Loading GraphiQL" not in result.stdout
