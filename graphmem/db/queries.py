"""Named Cypher: every query graphmem runs lives in `cypher/<group>/<name>.cypher`, loaded by name.

Analysts can paste any file into Neo4j Browser and get the answer the service gets.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from graphmem.errors import ConfigError

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def find_cypher_dir(package_dir: Path = PACKAGE_DIR) -> Path:
    """`graphmem/cypher` in an installed wheel (setup.py copies it there), else the checkout's top-level
    `cypher/` (an editable install or a source tree), the one source of both."""
    installed = package_dir / "cypher"
    return installed if installed.is_dir() else package_dir.parent / "cypher"


CYPHER_DIR = find_cypher_dir()


@cache
def load_query(name: str) -> str:
    """Text of `cypher/<name>.cypher`, e.g. `load_query("read/vector_units")`, comments kept."""
    if not CYPHER_DIR.is_dir():
        raise ConfigError(
            f"graphmem's Cypher files are missing (looked in {PACKAGE_DIR / 'cypher'} and {CYPHER_DIR}): "
            "install graphmem from a wheel built by its setup.py, or from the checkout"
        )
    path = (CYPHER_DIR / f"{name}.cypher").resolve()
    if CYPHER_DIR not in path.parents or not path.is_file():
        raise KeyError(f"no Cypher file named {name!r} under {CYPHER_DIR}")
    return path.read_text(encoding="utf-8").strip().rstrip(";")


def split_statements(text: str) -> list[str]:
    """Statements of a multi-statement schema file: split on `;` at line ends, comments dropped."""
    lines = [line for line in text.splitlines() if not line.strip().startswith("//")]
    body = "\n".join(lines)
    return [stmt.strip() for stmt in body.split(";\n") if stmt.strip().rstrip(";").strip()]


def load_statements(name: str) -> list[str]:
    return [s.rstrip(";").strip() for s in split_statements(load_query(name) + ";\n")]
