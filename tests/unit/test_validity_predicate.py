"""Every read query decides validity by the one definition in `graphmem.read.asof`, verbatim."""

from __future__ import annotations

import re

from graphmem.db.queries import CYPHER_DIR
from graphmem.read.asof import validity_derived, validity_unit

READ_GROUPS = ("read", "api")


def _read_queries() -> dict[str, str]:
    return {
        f"{group}/{path.stem}": path.read_text(encoding="utf-8")
        for group in READ_GROUPS
        for path in sorted((CYPHER_DIR / group).glob("*.cypher"))
    }


def test_no_read_query_trusts_the_cache_alone_for_a_past_known_at() -> None:
    offenders = [name for name, text in _read_queries().items() if re.search(r"valid_to > \$as_of", text)]
    assert offenders == [], "filter on `valid_to > $open_after` plus the record check (graphmem.read.asof)"


def test_every_cache_filter_comes_with_the_record_check_for_its_node() -> None:
    checked = 0
    for name, text in _read_queries().items():
        for var in set(re.findall(r"(\w+)\.valid_to > \$open_after", text)):
            assert validity_unit(var) in text or validity_derived(var) in text, (name, var)
            checked += 1
    assert checked >= 15


def test_the_record_check_is_a_no_op_for_a_read_known_now() -> None:
    for var in ("n", "d"):
        assert validity_unit(var).startswith("($known_now OR ")
        assert validity_derived(var).startswith("($known_now OR ")
