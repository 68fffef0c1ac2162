"""The embedded Neo4j's heap and page cache: a size as configured, or `auto` chosen from the machine's memory.

`auto` gives the heap an eighth of the memory (512 MiB to 8 GiB) and the page cache a quarter (512 MiB to
16 GiB), leaving the rest to the service, its embedding model and the operating system's file cache.
"""

from __future__ import annotations

import os
from pathlib import Path

AUTO = "auto"
MIB = 1024 * 1024
GIB = 1024 * MIB
HEAP_SHARE, HEAP_MIN, HEAP_MAX = 1 / 8, 512 * MIB, 8 * GIB
PAGECACHE_SHARE, PAGECACHE_MIN, PAGECACHE_MAX = 1 / 4, 512 * MIB, 16 * GIB
CGROUP_LIMITS = (Path("/sys/fs/cgroup/memory.max"), Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"))


def machine_memory_bytes() -> int:
    """Physical memory, or the container's (cgroup) limit where that is smaller."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for path in CGROUP_LIMITS:
        try:
            text = path.read_text(encoding="utf-8").strip()
        except OSError:
            continue
        if text.isdigit() and 0 < int(text) < total:
            total = int(text)
    return total


def _share(total: int, share: float, low: int, high: int) -> str:
    return f"{min(high, max(low, int(total * share))) // MIB}m"


def heap_size(configured: str, total: int | None = None) -> str:
    """The JVM heap (`-Xmx` form): `configured` unless it is `auto`."""
    if configured != AUTO:
        return configured
    return _share(machine_memory_bytes() if total is None else total, HEAP_SHARE, HEAP_MIN, HEAP_MAX)


def pagecache_size(configured: str, total: int | None = None) -> str:
    """The page cache (`server.memory.pagecache.size` form): `configured` unless it is `auto`."""
    if configured != AUTO:
        return configured
    return _share(machine_memory_bytes() if total is None else total, PAGECACHE_SHARE, PAGECACHE_MIN, PAGECACHE_MAX)
