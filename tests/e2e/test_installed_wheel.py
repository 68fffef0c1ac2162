"""graphmem installed from a wheel, not from the checkout: the wheel carries its Cypher files, and the
installed `graphmem` command, run from a folder outside the repository, installs the schema, stores
documents and recalls them from a real Neo4j."""

from __future__ import annotations

import json
import subprocess
import zipfile

import pytest

from tests.support.installed_wheel import REPO, InstalledWheel, installed_wheel

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def wheel() -> InstalledWheel:
    return installed_wheel()


def graphmem(
    wheel: InstalledWheel, neo4j_server, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = wheel.env(
        NEO4J_URI=neo4j_server.uri,
        NEO4J_USER=neo4j_server.user,
        NEO4J_PASSWORD=neo4j_server.password,
        GRAPHMEM_EMBEDDER="hashing:384",
        GRAPHMEM_STRUCTURER="rules",
    )
    return subprocess.run(
        [str(wheel.bin / "graphmem"), *args],
        cwd=wheel.outside,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_wheel_ships_every_cypher_file_and_the_package_data(wheel: InstalledWheel) -> None:
    names = set(zipfile.ZipFile(wheel.wheel).namelist())
    cypher = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "cypher").rglob("*.cypher"))
    assert cypher, "the checkout has no Cypher files"
    assert [f"graphmem/{name}" for name in cypher if f"graphmem/{name}" not in names] == []
    assert "graphmem/db/EmbeddedNeo4j.java" in names
    assert any(name.startswith("graphmem/ui/explorer/") for name in names)


def test_the_installed_command_reads_its_own_cypher_files_not_the_checkouts(wheel: InstalledWheel) -> None:
    probe = "import graphmem, graphmem.db.queries as q; print(graphmem.__file__); print(q.CYPHER_DIR)"
    result = subprocess.run(
        [str(wheel.bin / "python"), "-c", probe],
        cwd=wheel.outside,
        env=wheel.env(),
        capture_output=True,
        text=True,
        check=True,
    )
    module, cypher_dir = result.stdout.split()
    assert module.startswith(str(wheel.venv)) and cypher_dir.startswith(str(wheel.venv))
    assert cypher_dir.endswith("graphmem/cypher")


def test_installed_wheel_installs_the_schema_stores_documents_and_recalls_them(
    wheel: InstalledWheel,
    neo4j_server,
    space: str,  # type: ignore[no-untyped-def]
) -> None:
    installed = graphmem(wheel, neo4j_server, "schema", "install")
    assert installed.returncode == 0, installed.stderr
    assert json.loads(installed.stdout)["dimensions"] == 384

    documents = [
        {"id": "office", "text": "The Acme office moved to Lyon in June.", "event_at": "2024-06-01T00:00:00Z"},
        {"id": "lunch", "text": "Team lunch is at Chez Marie on Fridays.", "event_at": "2024-02-01T00:00:00Z"},
    ]
    stdin = "\n".join(json.dumps(d) for d in documents) + "\n"
    ingested = graphmem(wheel, neo4j_server, "ingest", "documents", "-", "--space", space, "--no-progress", stdin=stdin)
    assert ingested.returncode == 0, ingested.stderr
    assert json.loads(ingested.stdout.strip().splitlines()[-1])["created"]["Episodic"] == 2

    recalled = graphmem(wheel, neo4j_server, "recall", "Where is the Acme office?", "--space", space, "--k", "3")
    assert recalled.returncode == 0, recalled.stderr
    hits = json.loads(recalled.stdout)["hits"]
    assert hits and "Lyon" in hits[0]["text"]
