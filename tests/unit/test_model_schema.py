"""One source of truth: every label and relationship type the Cypher files use is declared in the model."""

from __future__ import annotations

import re

from graphmem.db.queries import CYPHER_DIR
from graphmem.model import LABELS, relationship_types
from graphmem.model.nodes import HIDDEN_LABELS, AuditRecord

NODE_LABEL = re.compile(r"\(\s*\w*\s*:\s*([A-Z]\w*)")
REL_TYPE = re.compile(r"\[\s*\w*\s*:\s*([A-Z_|]+)")


def _cypher_files() -> list[tuple[str, str]]:
    return [(str(p.relative_to(CYPHER_DIR)), p.read_text()) for p in sorted(CYPHER_DIR.rglob("*.cypher"))]


def test_cypher_files_use_only_declared_labels() -> None:
    known = set(LABELS) | {AuditRecord.__name__, *HIDDEN_LABELS}  # audit records and API keys are not memory
    for name, text in _cypher_files():
        for label in NODE_LABEL.findall(text):
            assert label in known, f"{name} uses undeclared label {label}"


def test_cypher_files_use_only_declared_relationship_types() -> None:
    known = relationship_types()
    for name, text in _cypher_files():
        for group in REL_TYPE.findall(text):
            for rel in filter(None, group.split("|")):
                assert rel in known, f"{name} uses undeclared relationship type {rel}"


def test_every_cypher_file_is_named_and_commented() -> None:
    for name, text in _cypher_files():
        assert text.lstrip().startswith("//"), f"{name} should open with a // comment saying what it does"
