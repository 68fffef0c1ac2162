"""The provenance explorer end to end in headless Chromium: load data, search, open a fact's provenance,
move the as-of slider and check which version the page shows as valid, then open the source text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from graphmem.api import Services, create_app
from graphmem.config import Settings
from graphmem.embed.hashing import HashingEmbedder
from graphmem.memory_graph import MemoryGraph
from tests.support.api_graph import ApiKeys
from tests.support.service import serve_thread

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PLAYWRIGHT = Path.home() / ".cache" / "graphmem" / "e2e-node" / "node_modules" / "playwright-core" / "index.mjs"
SCRIPT = Path(__file__).parent / "browser" / "explorer.mjs"


def _seed(store, space: str) -> None:
    memory = MemoryGraph(store, HashingEmbedder(384), Settings())
    memory.ingest_documents(space, [{
        "id": f"{space}-v1", "text": "The Berlin office approves travel budgets up to 5000 EUR.", "author": "ana",
        "event_at": "2024-01-10T09:00:00Z"}], strict=True)  # fmt: skip
    memory.ingest_documents(space, [{
        "id": f"{space}-v2", "text": "The Berlin office approves travel budgets up to 8000 EUR.", "author": "ben",
        "event_at": "2024-05-02T09:00:00Z", "supersedes": [f"{space}-v1"]}], strict=True)  # fmt: skip
    facts = {
        row["doc"]: row["id"]
        for row in store.run_read_text(
            "MATCH (f:Semantic {space: $space})-[:EVIDENCED_BY]->(d:Episodic) WHERE f.text CONTAINS 'travel' "
            "RETURN d.id AS doc, f.id AS id",
            space=space,
        )
    }
    memory.supersede(
        space, facts[f"{space}-v2"], facts[f"{space}-v1"], "2024-05-02T09:00:00Z", reason="raised", by="ben"
    )


def test_explorer_page_is_served_without_external_assets(store) -> None:
    app = create_app(Services(settings=Settings(), store=store, _embedder=HashingEmbedder(384)))
    client = TestClient(app)  # no lifespan: the app must not close the session's shared store
    page = client.get("/explorer/")
    assert page.status_code == 200 and "provenance explorer" in page.text
    assert "http://" not in page.text and "https://" not in page.text
    assert client.get("/explorer/explorer.js").status_code == 200


@pytest.mark.skipif(
    CHROMIUM is None or shutil.which("node") is None or not PLAYWRIGHT.exists(),
    reason="needs Chromium, Node.js and playwright-core (make e2e-deps)",
)
def test_explorer_search_provenance_and_as_of_slider(store, space: str, tmp_path: Path) -> None:
    _seed(store, space)
    keys = ApiKeys()
    key = keys.add("read", space)
    settings = Settings(GRAPHMEM_API_KEYS=keys.env(), GRAPHMEM_API_KEY_FILE=tmp_path / "keys.json")
    app = create_app(Services(settings=settings, store=store, _embedder=HashingEmbedder(384)))
    screenshot = tmp_path / "explorer.png"
    with serve_thread(app) as base:
        proc = subprocess.run(
            ["node", str(SCRIPT), f"{base}/explorer/", key, space,
             "travel budgets of the Berlin office", "0.05", str(screenshot)],
            capture_output=True, text=True, timeout=240,
            env={**os.environ, "PLAYWRIGHT_CORE": str(PLAYWRIGHT), "CHROMIUM": str(CHROMIUM)},
        )  # fmt: skip
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "error" not in seen, seen
    assert "8000" in seen["title"]  # the current fact is the top hit
    assert len(seen["versions"]) == 2
    assert len(seen["validNow"]) == 1 and "8000" in seen["validNow"][0]
    assert seen["asOfLabel"] < "2024-05-02"
    assert len(seen["validThen"]) == 1 and "5000" in seen["validThen"][0]  # the slider moved to the old version
    assert "travel budgets" in seen["source"]
    if os.environ.get("GRAPHMEM_DOCS_SCREENSHOTS"):
        shutil.copy(screenshot, Path(os.environ["GRAPHMEM_DOCS_SCREENSHOTS"]) / "explorer.png")
