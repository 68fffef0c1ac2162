"""docker-compose.yml and the Dockerfile, checked without a Docker engine: the compose file is valid against
the Compose Specification's JSON schema (vendored: tests/support/compose_spec/README.md), the service gets
a key, waits for a healthy Neo4j and keeps its state in a volume, and everything the Dockerfile copies exists.
What the image runs is exercised in tests/e2e/test_container_entrypoint.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
COMPOSE_SCHEMA = REPO / "tests" / "support" / "compose_spec" / "compose-spec.json"


def compose_errors(document: dict[str, Any]) -> list[str]:
    schema = json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


@pytest.fixture
def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (REPO / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_the_compose_file_is_valid_against_the_compose_specification(compose: dict[str, Any]) -> None:
    assert compose_errors(compose) == []


def test_the_schema_check_catches_a_misspelt_compose_file(compose: dict[str, Any]) -> None:
    compose["services"]["graphmem"]["enviroment"] = compose["services"]["graphmem"].pop("environment")
    compose["services"]["neo4j"]["healthcheck"]["interval"] = 5
    errors = compose_errors(compose)
    assert any("'enviroment' was unexpected" in e for e in errors)
    assert any(e.startswith("services/neo4j/healthcheck/interval") for e in errors)


def test_the_service_gets_a_key_waits_for_a_healthy_neo4j_and_keeps_its_state(compose: dict[str, Any]) -> None:
    service = compose["services"]["graphmem"]
    assert service["depends_on"]["neo4j"]["condition"] == "service_healthy"
    env = service["environment"]
    assert env["GRAPHMEM_API_KEY"] == "${GRAPHMEM_API_KEY:-}"  # the clients' key, from the user's shell
    assert env["NEO4J_URI"] == "bolt://neo4j:7687"
    assert env["NEO4J_PASSWORD"] == compose["services"]["neo4j"]["environment"]["NEO4J_AUTH"].removeprefix("neo4j/")
    state = env["GRAPHMEM_SECRETS_DIR"]
    assert f"graphmem-state:{state}" in service["volumes"] and "graphmem-state" in compose["volumes"]
    assert f"{env['GRAPHMEM_PORT']}:8000" in service["ports"]


def test_the_image_runs_the_entrypoint_checks_health_and_ships_graphiql() -> None:
    instructions = dockerfile_instructions()
    runs = [arg for op, arg in instructions if op == "RUN"]
    assert any("python -m graphmem.api.graphiql fetch" in run for run in runs)
    assert any("default_embedder()" in run for run in runs)  # the model loads offline at build
    assert ("ENTRYPOINT", '["graphmem-entrypoint"]') in instructions
    assert ("COPY", "docker/entrypoint.sh /usr/local/bin/graphmem-entrypoint") in instructions
    (healthcheck,) = [arg for op, arg in instructions if op == "HEALTHCHECK"]
    assert "/healthz" in healthcheck
    assert (REPO / "docker" / "entrypoint.sh").stat().st_mode & 0o111


def test_everything_the_dockerfile_copies_exists_and_is_not_docker_ignored() -> None:
    ignored = [
        line.strip()
        for line in (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    sources = []
    for op, arg in dockerfile_instructions():
        if op == "COPY" and not arg.startswith("--from="):
            sources += arg.split()[:-1]
    assert sources
    for source in sources:
        assert (REPO / source).exists(), f"the Dockerfile copies {source}, which is missing"
        first = source.split("/")[0]
        assert first not in ignored and source not in ignored, f"{source} is in .dockerignore"
