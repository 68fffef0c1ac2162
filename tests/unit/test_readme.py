"""The README documents every setting (the Settings class is the source; the README must keep up)."""

from __future__ import annotations

from pathlib import Path

from graphmem.config import Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_setting_is_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    missing = [f.alias for f in Settings.model_fields.values() if f.alias and f"`{f.alias}`" not in text]
    assert missing == [], f"README configuration table lacks: {missing}"


def test_readme_starts_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.index("make run") < text.index("## Configuration")
    assert text.index("make test") < text.index("## Configuration")
