"""Neo4j Browser at /browser/: served by graphmem (no Docker, no separate server) and able to reach Bolt."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from graphmem.api import Services, create_app
from graphmem.config import Settings
from graphmem.embed.hashing import HashingEmbedder
from graphmem.ui.neo4j_browser import browser_dir, fetch_browser
from tests.support.service import serve_thread

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    settings = Settings(GRAPHMEM_API_KEY_FILE=tmp_path_factory.mktemp("keys") / "keys.json")
    fetch_browser(settings)  # cached under GRAPHMEM_CACHE_DIR after the first run (make setup does it)
    return settings


def test_browser_is_served_and_points_at_the_bolt_port(store, browser_settings: Settings) -> None:
    app = create_app(Services(settings=browser_settings, store=store, _embedder=HashingEmbedder(384)))
    client = TestClient(app)  # no lifespan: the app must not close the session's shared store
    entry = client.get("/browser", follow_redirects=False)
    assert entry.status_code == 307
    assert entry.headers["location"] == f"/browser/?connectURL={store.uri}"
    page = client.get("/browser/")
    assert page.status_code == 200 and "Neo4j Browser" in page.text
    bundle = next(p.name for p in browser_dir(browser_settings).glob("*.bundle.js"))
    assert client.get(f"/browser/{bundle}").status_code == 200


def test_bolt_port_accepts_the_browsers_websocket(store) -> None:
    """Neo4j Browser talks Bolt over WebSocket; the same Bolt port must upgrade the connection."""
    http_uri = store.uri.replace("bolt://", "http://").replace("neo4j://", "http://")
    headers = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    with httpx.Client(timeout=5) as client, client.stream("GET", http_uri + "/", headers=headers) as reply:
        assert reply.status_code == 101


PLAYWRIGHT = Path.home() / ".cache" / "graphmem" / "e2e-node" / "node_modules" / "playwright-core" / "index.mjs"
SCRIPT = Path(__file__).parent / "browser" / "connect_neo4j_browser.mjs"


@pytest.mark.skipif(
    CHROMIUM is None or shutil.which("node") is None or not PLAYWRIGHT.exists(),
    reason="needs Chromium, Node.js and playwright-core (make e2e-deps)",
)
def test_browser_connects_and_runs_a_query_in_headless_chromium(
    store, neo4j_server, browser_settings: Settings, tmp_path: Path
) -> None:
    app = create_app(Services(settings=browser_settings, store=store, _embedder=HashingEmbedder(384)))
    with serve_thread(app) as base:
        proc = subprocess.run(
            ["node", str(SCRIPT), f"{base}/browser/?connectURL={store.uri}", neo4j_server.password,
             str(tmp_path / "browser.png")],
            capture_output=True, text=True, timeout=240,
            env={**os.environ, "PLAYWRIGHT_CORE": str(PLAYWRIGHT), "CHROMIUM": str(CHROMIUM)},
        )  # fmt: skip
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["connected"], result
    assert "You are connected as user neo4j" in result["queryOutput"]
    assert "semantic_embedding" in result["queryOutput"] and "tag_embedding" in result["queryOutput"]
    assert (tmp_path / "browser.png").stat().st_size > 10_000
