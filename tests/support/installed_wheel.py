"""graphmem as a user installs it: a wheel built from this checkout by pip (as the Dockerfile builds it),
installed into a fresh venv and run from a folder outside the repository.

The venv borrows the test venv's dependencies through a `.pth` line, so nothing is downloaded; graphmem
itself comes only from the wheel (the checkout's editable finder is not loaded there, and PYTHONPATH is
dropped). Built once per test process.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import venv
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# What the Dockerfile copies into its build stage to build the wheel.
WHEEL_SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "graphmem", "cypher")


@dataclass(frozen=True)
class InstalledWheel:
    wheel: Path
    venv: Path
    outside: Path  # an empty working folder outside the repository

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def env(self, **extra: str) -> dict[str, str]:
        """A shell in the venv: its bin first on PATH, no PYTHONPATH (the checkout must not leak in)."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        return {**env, **extra}


def _run(args: list[str], cwd: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


@cache
def installed_wheel() -> InstalledWheel:
    root = Path(tempfile.mkdtemp(prefix="graphmem-wheel-"))
    atexit.register(shutil.rmtree, root, True)
    source = root / "src"  # a copy: building in the checkout would leave build/ and *.egg-info there
    for name in WHEEL_SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    wheels = root / "wheels"
    pip_wheel = ["-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(wheels), str(source)]
    _run([sys.executable, *pip_wheel], cwd=root)
    (wheel,) = wheels.glob("graphmem-*.whl")

    target = root / "venv"
    venv.create(target, with_pip=False)
    python = target / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "graphmem-test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    install = ["-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "--no-warn-conflicts"]
    _run([str(python), *install, str(wheel)], cwd=root)
    outside = root / "work"
    outside.mkdir()
    return InstalledWheel(wheel, target, outside)
