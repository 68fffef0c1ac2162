"""Packaging hook: the wheel ships the top-level `cypher/` folder as `graphmem/cypher` (package data the
service reads at run time). `cypher/` stays the one source; nothing is copied into the source tree.
Everything else about the package is declared in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CYPHER_SOURCE = Path(__file__).resolve().parent / "cypher"


class BuildPyWithCypher(build_py):
    """`build_py` plus every `cypher/**/*.cypher` copied to `<build>/graphmem/cypher/` (not in editable mode:
    an editable install reads the checkout's `cypher/` directly)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "graphmem" / "cypher"
        for source in sorted(CYPHER_SOURCE.rglob("*.cypher")):
            dest = target / source.relative_to(CYPHER_SOURCE)
            self.mkpath(str(dest.parent))
            self.copy_file(str(source), str(dest))


setup(cmdclass={"build_py": BuildPyWithCypher})
