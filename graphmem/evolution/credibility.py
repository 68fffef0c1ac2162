"""Credibility in [0, 1] (what the read path's value model counts): conflicts lower it, corroboration raises it.

- A version superseded by a *conflict* (consolidation found a later, contradicting fact) keeps
  `CONFLICT_FACTOR` of its credibility: it was once stated, but something later contradicts it. An explicit
  or document supersession is a planned change of value and leaves credibility alone.
- A merged node (several sources said the same thing) gets the noisy-or of its sources,
  `1 - prod(1 - c_i)`: never below its best source, higher when independent sources agree.
"""

from __future__ import annotations

from collections.abc import Iterable

CONFLICT_FACTOR = 0.5
DEFAULT_CREDIBILITY = 1.0


def corroborated(credibilities: Iterable[float | None]) -> float:
    """Noisy-or of the sources' credibility (missing values count as the default)."""
    doubt = 1.0
    for value in credibilities:
        c = DEFAULT_CREDIBILITY if value is None else min(1.0, max(0.0, float(value)))
        doubt *= 1.0 - c
    return round(1.0 - doubt, 6)
