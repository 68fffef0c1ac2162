"""Reliability figures: a test that measures something writes it here when GRAPHMEM_RELIABILITY_OUT names a
folder (`make reliability` does), and `bench/reliability_report.py` turns the folder into docs/reliability.md."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def record_figures(name: str, figures: dict[str, Any]) -> None:
    folder = os.environ.get("GRAPHMEM_RELIABILITY_OUT")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / f"{name}.json").write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")
