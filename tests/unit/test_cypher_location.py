"""Where graphmem finds its Cypher files: inside the installed package (a wheel), else the checkout."""

from __future__ import annotations

from pathlib import Path

from graphmem.db.queries import CYPHER_DIR, find_cypher_dir


def test_an_installed_package_reads_the_cypher_files_it_carries(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "graphmem"
    (package / "cypher").mkdir(parents=True)
    (tmp_path / "site-packages" / "cypher").mkdir()  # an unrelated top-level folder beside it is ignored
    assert find_cypher_dir(package) == package / "cypher"


def test_a_checkout_reads_the_top_level_cypher_folder(tmp_path: Path) -> None:
    (tmp_path / "graphmem").mkdir()
    assert find_cypher_dir(tmp_path / "graphmem") == tmp_path / "cypher"
    assert (CYPHER_DIR / "read" / "vector_units.cypher").is_file()
