"""Content-derived ids: the same content in the same space always gets the same id, so writes are idempotent.

An id reads `<prefix>_<24 hex>`: the prefix names the label (`doc`, `step`, `fact`, ...), the digest covers
the space and the identifying parts, so equal content in two spaces never collides.
"""

from __future__ import annotations

import hashlib

SEPARATOR = "\x1f"


def content_hash(text: str) -> str:
    """sha256 of a text, hex; what exact-repeat detection compares."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_id(prefix: str, space: str, *parts: object) -> str:
    """A stable id for the node identified by `parts` within `space`."""
    material = SEPARATOR.join([space, *(str(p) for p in parts)])
    return f"{prefix}_{hashlib.sha256(material.encode('utf-8')).hexdigest()[:24]}"
