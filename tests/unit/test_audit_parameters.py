"""The audit queries document their parameters' types, and a value of another type is refused by name."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from graphmem.db.queries import CYPHER_DIR, load_query
from graphmem.db.query_params import check_parameters, coerce_text_parameters, query_parameters
from graphmem.errors import InvalidInput

AUDIT = sorted(f"audit/{p.stem}" for p in (CYPHER_DIR / "audit").glob("*.cypher"))
GOOD = {
    "space": "acme",
    "since": datetime(2024, 1, 1, tzinfo=UTC),
    "until": datetime(2025, 1, 1, tzinfo=UTC),
    "limit": 100,
}


@pytest.mark.parametrize("name", AUDIT)
def test_every_audit_query_declares_the_type_of_each_parameter_it_uses(name: str) -> None:
    body = "\n".join(line for line in load_query(name).splitlines() if not line.lstrip().startswith("//"))
    used = set(re.findall(r"\$(\w+)", body))
    declared = {p.name for p in query_parameters(name)}
    assert used and used == declared, f"{name}: uses {sorted(used)}, its header types {sorted(declared)}"


def test_a_string_where_a_datetime_is_documented_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput) as refused:
        check_parameters(query_parameters("audit/changes_between"), {**GOOD, "since": "2024-01-01T00:00:00Z"})
    assert refused.value.field == "since"
    assert "must be a datetime, not str '2024-01-01T00:00:00Z'" in refused.value.message
    assert ":param since => datetime('2024-01-01T00:00:00Z')" in refused.value.message


def test_a_naive_datetime_or_a_float_limit_is_refused_by_name() -> None:
    declared = query_parameters("audit/changes_between")
    with pytest.raises(InvalidInput, match=r"^until: a datetime needs a time zone"):
        check_parameters(declared, {**GOOD, "until": datetime(2025, 1, 1)})
    with pytest.raises(InvalidInput, match=r"^limit: must be an integer, not float '100\.0'"):
        check_parameters(declared, {**GOOD, "limit": 100.0})
    with pytest.raises(InvalidInput, match=r"^space: missing: the query needs \$space \(text\)"):
        check_parameters(declared, {k: v for k, v in GOOD.items() if k != "space"})


def test_documented_types_pass_and_a_nullable_tag_may_be_null() -> None:
    check_parameters(query_parameters("audit/changes_between"), GOOD)
    check_parameters(
        query_parameters("audit/facts_as_of"),
        {"space": "acme", "as_of": GOOD["since"], "known_at": GOOD["until"], "tag": None},
    )


def test_the_console_reads_an_iso_string_as_the_datetime_it_names() -> None:
    declared = query_parameters("audit/changes_between")
    typed = coerce_text_parameters(declared, {**GOOD, "since": "2024-01-01T00:00:00Z"})
    assert typed["since"] == GOOD["since"]
    with pytest.raises(InvalidInput, match=r"^since: 'last week' is not an ISO 8601 date-time"):
        coerce_text_parameters(declared, {**GOOD, "since": "last week"})
