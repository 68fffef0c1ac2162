"""The names of a space's main participants, left out of the question's dense query.

In a conversation between a few people every turn carries a participant's name ("Melanie: ..."), so a
question naming one of them ("What country is Melanie's grandma from?") is, to the embedder, mostly about
that name: the dense leg returned Melanie's content-free turns ("Wow, Caroline, that looks amazing!") and
missed the turn that answers it, which Caroline said to Melanie. Lexical search weighs such a name down by
itself (it is in half the turns), and the tag and lexical legs still see it. A speaker counts as a main
participant when they said at least GRAPHMEM_READ_PARTICIPANT_SHARE of a sample of the space's chat turns.
Documents are left alone: their embedded text does not carry their author's name, and a question naming
an author of many notes ("What did Priya and Tomasz settle?") is about them.
"""

from __future__ import annotations

import re

from graphmem.db import Store
from graphmem.text import stopwords

SAMPLE_UNITS = 500  # chat turns read to estimate who the participants are, whatever the space's size


def participant_names(store: Store, space: str, share: float) -> frozenset[str]:
    """Names of the speakers of at least `share` of a sample of the space's chat turns (none above 1).

    Read on every call (one indexed read of at most SAMPLE_UNITS turns), never cached in the process, so
    every service instance answers a question the same way right after a write through any of them.
    """
    if share > 1:
        return frozenset()
    rows = store.read("read/space_authors", space=space, sample=SAMPLE_UNITS)
    return frozenset(str(r["author"]) for r in rows if r["units"] >= share * r["sampled"])


def without_participants(query: str, names: frozenset[str]) -> str:
    """`query` with every word of the given names (and its possessive) left out; the query as it was when
    that would leave nothing but stop words ("Who is Melanie?")."""
    words = {w for name in names for w in name.split() if w}
    if not words:
        return query
    pattern = (
        r"(?<!\w)(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?:['’]s)?(?!\w)"
    )
    stripped = " ".join(re.sub(pattern, " ", query, flags=re.IGNORECASE).split())
    stop = stopwords()
    return stripped if any(w.lower() not in stop for w in re.findall(r"\w+", stripped)) else query
