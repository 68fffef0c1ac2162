"""The docs run: every GraphQL example of README.md, docs/graphql.md and docs/tutorial.md validates against the
schema, and every example marked `doc-test` (see tests/support/doc_examples.py) runs against a real service on
the data the page loads, its output matching the one shown — so the docs cannot drift from the product."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from graphql import build_schema, parse, validate

from graphmem import cli
from graphmem.api import Services, create_app
from graphmem.config import Settings, get_settings
from tests.support.api_graph import ApiKeys
from tests.support.doc_examples import ROOT, Block, blocks, fits, mismatch
from tests.support.service import serve_thread

pytestmark = pytest.mark.integration

PAGES = ("README.md", "docs/graphql.md", "docs/tutorial.md")
SCHEMA = build_schema((ROOT / "schema.graphql").read_text(encoding="utf-8"))
_INLINE_QUERY = re.compile(r'"query":\s*"((?:[^"\\]|\\.)*)"')


def _graphql_texts() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for block in blocks(page):
            if block.lang == "graphql":
                found.append((block.where, block.text))
            elif block.lang in ("bash", "sh"):  # `curl ... -d '{"query": "..."}'`
                found += [(block.where, json.loads(f'"{q}"')) for q in _INLINE_QUERY.findall(block.text)]
    return found


@pytest.mark.parametrize(("where", "text"), _graphql_texts(), ids=[w for w, _ in _graphql_texts()])
def test_every_graphql_example_validates_against_the_schema(where: str, text: str) -> None:
    errors = validate(SCHEMA, parse(text))
    assert errors == [], f"{where}: {[e.message for e in errors]}"


def test_every_graphql_example_is_run_by_this_test() -> None:
    unmarked = [b.where for p in PAGES for b in blocks(p) if b.lang == "graphql" and b.action != "query"]
    assert unmarked == [], f"GraphQL examples without a `<!-- doc-test: query -->` marker: {unmarked}"


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


class DocRunner:
    """Runs a page's marked blocks in order against one service, with the page's spaces made unique."""

    def __init__(self, base: str, keys: dict[str, str | None], run: str) -> None:
        self.base, self.keys, self.run = base, keys, run
        self.spaces: dict[str, str] = {}
        self.shell: dict[str, str] = {}
        self.last: Any = None
        self.seen: list[list[str]] = []
        self.last_from = ""

    def space(self, name: str) -> str:
        return self.spaces.setdefault(name, f"docs-{self.run}-{name}")

    def pages(self, *pages: str, only_setup_of: tuple[str, ...] = ()) -> None:
        for page in only_setup_of:
            for block in blocks(page):
                if block.action == "query" and "setup" in block.options:
                    self.query(block)
        for page in pages:
            for block in blocks(page):
                if block.action == "query":
                    self.query(block)
                elif block.action == "run":
                    self.commands(block)
                elif block.action == "expect":
                    self.expect(block)

    # --- GraphQL -----------------------------------------------------------------------------------
    def query(self, block: Block) -> None:
        variables = self._value("", block.variables)
        key = self.keys[block.options.get("key", "admin")]
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        reply = httpx.post(f"{self.base}/graphql", json={"query": block.text, "variables": variables},
                           headers=headers, timeout=120)  # fmt: skip
        status = int(block.options.get("status", 200))
        assert reply.status_code == status, f"{block.where}: HTTP {reply.status_code}: {reply.text[:2000]}"
        self.last, self.last_from = reply.json(), block.where
        self.seen.append(_strings(self.last))

    def _value(self, key: str, value: Any) -> Any:
        """A shown variable as this run needs it: spaces made unique, `$NAME` from the shell, and `proc_…` the
        first value of that form an earlier output held (ids are derived from the space)."""
        if isinstance(value, dict):
            return {k: self._value(k, v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._value(key, v) for v in value]
        if not isinstance(value, str):
            return value
        if key == "space":
            return self.space(value)
        if value.startswith("$"):
            return self.shell[value[1:]]
        if "…" in value:  # the newest output first, in its order
            found = next((s for out in reversed(self.seen) for s in out if fits(value, s)), None)
            assert found, f"no earlier output holds a value like {value!r}"
            return found
        return value

    # --- shell -------------------------------------------------------------------------------------
    def commands(self, block: Block) -> None:
        for line in block.text.splitlines():
            line = line.split("  #")[0].strip()
            if not line or line.startswith("#"):
                continue
            assigned = re.fullmatch(r"(\w+)=\$\(date -u \+%Y-%m-%dT%H:%M:%SZ\)", line)
            if assigned:  # at a person's pace: a second after the command before it, a second before the next
                time.sleep(1.1)
                self.shell[assigned.group(1)] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
                time.sleep(1.1)
                continue
            self.last, self.last_from = self.graphmem(block, line), f"{block.where}: {line}"
            self.seen.append(_strings(self.last))

    def graphmem(self, block: Block, line: str) -> list[Any]:
        line = re.sub(r'"\$\(cat ([\w/.-]+)\)"', lambda m: shlex.quote((ROOT / m.group(1)).read_text()), line)
        argv = shlex.split(line)
        assert argv[0] in (".venv/bin/graphmem", "graphmem"), f"{block.where}: cannot run {argv[0]}"
        args = []
        for i, arg in enumerate(argv[1:]):
            if i and argv[i] == "--space":
                arg = self.space(arg)
            elif arg.startswith("space="):
                arg = "space=" + self.space(arg[6:])
            elif arg.startswith("$"):
                arg = self.shell[arg[1:]]
            elif arg.startswith("docs/"):
                arg = str(ROOT / arg)
            args.append(arg)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(args)
        assert code == 0, f"{block.where}: `{line}` exited {code}: {err.getvalue()[-2000:]}"
        return [json.loads(row) for row in out.getvalue().splitlines() if row.strip()]

    # --- comparing ---------------------------------------------------------------------------------
    def _as_shown(self, value: Any) -> Any:
        """An output with this run's spaces named as the page names them."""
        if isinstance(value, dict):
            return {k: self._as_shown(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._as_shown(v) for v in value]
        if isinstance(value, str):
            for name, unique in self.spaces.items():
                value = value.replace(unique, name)
        return value

    def expect(self, block: Block) -> None:
        text = block.text.strip()
        try:
            shown: Any = json.loads(text)
        except json.JSONDecodeError:  # one JSON object per line, as commands print them
            shown = [json.loads(line) for line in text.splitlines() if line.strip()]
        actual = self._as_shown(self.last)
        if isinstance(actual, list) and not isinstance(shown, list):
            actual = actual[-1]  # a command's summary is its last line
        found = mismatch(shown, actual)
        if found and os.environ.get("GRAPHMEM_DOCS_FILL"):  # write the real output in; review the diff
            _fill(block, self._as_shown(self.last))
            return
        printed = json.dumps(actual, indent=2, ensure_ascii=False)
        assert found is None, f"{block.where} (output of {self.last_from}): {found}\n--- real output:\n{printed}"


def _fill(block: Block, actual: Any) -> None:
    if isinstance(actual, list) and block.page == "docs/tutorial.md" and len(actual) != 1:
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in actual)
    else:
        text = json.dumps(actual[0] if isinstance(actual, list) and len(actual) == 1 else actual, indent=2,
                          ensure_ascii=False) + "\n"  # fmt: skip
    path = ROOT / block.page
    now = blocks(block.page)[block.index]  # earlier fills may have moved it
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = now.line  # the line after the opening fence (0-based)
    end = start + now.text.count("\n")
    path.write_text("".join(lines[:start]) + text + "".join(lines[end:]), encoding="utf-8")


@pytest.fixture(scope="module")
def service(store, minilm, neo4j_server, tmp_path_factory, monkeypatch_module) -> Iterator[tuple[str, ApiKeys, str]]:
    """One service (real HTTP, the real embedder) for the module; the CLI, run in process, on the same Neo4j."""
    run = uuid.uuid4().hex[:8]
    keys = ApiKeys()
    admin, reader = keys.add("admin", f"docs-{run}-*"), keys.add("read", f"docs-{run}-*")
    settings = Settings(GRAPHMEM_API_KEYS=keys.env(), GRAPHMEM_API_KEY_FILE=tmp_path_factory.mktemp("k") / "k.json")
    for name, value in (("NEO4J_URI", neo4j_server.uri), ("NEO4J_USER", neo4j_server.user),
                        ("NEO4J_PASSWORD", neo4j_server.password), ("GRAPHMEM_STRUCTURER", "rules")):  # fmt: skip
        monkeypatch_module.setenv(name, value)
    monkeypatch_module.setattr("graphmem.memory_graph.make_embedder", lambda _settings: minilm)
    get_settings.cache_clear()
    with serve_thread(create_app(Services(settings=settings, store=store, _embedder=minilm))) as base:
        yield base, {"admin": admin, "read": reader, "none": None}, run
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def test_graphql_md_examples_run_as_shown(service) -> None:
    base, keys, run = service
    DocRunner(base, keys, run + "-g").pages("docs/graphql.md")


def test_readme_examples_run_as_shown(service) -> None:
    base, keys, run = service
    DocRunner(base, keys, run + "-r").pages("README.md", only_setup_of=("docs/graphql.md",))


def test_the_tutorial_runs_as_shown(service, tmp_path) -> None:
    base, keys, run = service
    runner = DocRunner(base, keys, run + "-t")
    runner.pages("docs/tutorial.md")
    if os.environ.get("GRAPHMEM_DOCS_SCREENSHOTS"):  # the tutorial's explorer screenshot, from this very run
        _explorer_screenshot(base, keys["read"], runner.space("tutorial"), tmp_path / "explorer.png")
        shutil.copy(tmp_path / "explorer.png", Path(os.environ["GRAPHMEM_DOCS_SCREENSHOTS"]) / "tutorial-explorer.png")


def _explorer_screenshot(base: str, key: str | None, space: str, path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    playwright = Path.home() / ".cache" / "graphmem" / "e2e-node" / "node_modules" / "playwright-core" / "index.mjs"
    script = ROOT / "tests" / "e2e" / "browser" / "explorer.mjs"
    proc = subprocess.run(
        ["node", str(script), f"{base}/explorer/", str(key), space, "Where is the Q3 offsite?", "0.3", str(path)],
        capture_output=True, text=True, timeout=240,
        env={**os.environ, "PLAYWRIGHT_CORE": str(playwright), "CHROMIUM": str(chromium)},
    )  # fmt: skip
    assert "error" not in proc.stdout and path.exists(), proc.stdout + proc.stderr
