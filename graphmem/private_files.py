"""Owner-only files for secrets (the Neo4j password, API key files): folders 0700, files 0600.

They live in GRAPHMEM_SECRETS_DIR, outside every folder the Neo4j process may read (its data and import
folders), so no Cypher statement can return them.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Create `path` owner-only when missing (an existing folder keeps its mode: it may be shared)."""
    if not path.is_dir():
        path.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    return path


def write_private(path: Path, text: str) -> None:
    """Write `text` atomically (temp file + rename) into an owner-only file."""
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        os.fchmod(fd, PRIVATE_FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def create_private(path: Path, text: str) -> str:
    """Create an owner-only file holding `text` unless one exists; returns what the file holds (so two
    processes racing to generate a secret agree on the first one written)."""
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        return path.read_text(encoding="utf-8")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    return text


def move_private(old: Path, new: Path) -> bool:
    """Move a secret left at an old location to `new` (owner-only) unless `new` exists; True when it moved."""
    if not old.is_file() or new.exists():
        return False
    write_private(new, old.read_text(encoding="utf-8"))
    old.unlink()
    return True


def is_within(path: Path, folder: Path) -> bool:
    """Is `path` (resolved) `folder` itself or inside it?"""
    resolved, root = path.expanduser().resolve(), folder.expanduser().resolve()
    return resolved == root or root in resolved.parents
