"""The versioned-documents generator: questions whose gold follows from the documents' dates."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

from bench.generate_versioned import generate, main


def _split(lines: list[dict]) -> tuple[dict[str, dict], list[dict]]:
    docs = {line["id"]: line for line in lines if line["kind"] == "document"}
    return docs, [line for line in lines if line["kind"] == "question"]


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def test_same_seed_same_data_other_seed_other_data() -> None:
    assert generate(5, 1, 4, 2, 10) == generate(5, 1, 4, 2, 10)
    assert generate(5, 1, 4, 2, 10) != generate(6, 1, 4, 2, 10)


def test_current_gold_is_newer_than_every_stale_version() -> None:
    docs, questions = _split(generate(11, 1, 4, 2, 10))
    current = [q for q in questions if q["type"] == "current"]
    assert current and all(q["stale"] for q in current)
    for q in current:
        (gold,) = q["gold"]
        assert all(_at(docs[gold]["event_at"]) > _at(docs[s]["event_at"]) for s in q["stale"])


def test_as_of_gold_is_dated_before_as_of_and_its_successor_after() -> None:
    docs, questions = _split(generate(11, 1, 4, 2, 10))
    as_of = [q for q in questions if q["type"] == "as_of"]
    assert as_of
    for q in as_of:
        (gold,) = q["gold"]
        assert _at(docs[gold]["event_at"]) <= _at(q["as_of"])
        # the stale versions it replaced are older still
        assert all(_at(docs[s]["event_at"]) < _at(docs[gold]["event_at"]) for s in q["stale"])


def test_many_authors_and_distractors_and_ids_in_date_order() -> None:
    docs, questions = _split(generate(2, 1, 3, 2, 30))
    authors = Counter(d["author"] for d in docs.values())
    assert len(authors) >= 15
    gold_or_stale = {g for q in questions for g in q["gold"] + q["stale"]}
    assert len(docs) - len(gold_or_stale) >= 60  # distractors and chatter outnumber the versions
    ordered = sorted(docs.values(), key=lambda d: d["event_at"])
    assert [d["id"] for d in ordered] == sorted(docs)  # ids follow dates: they say nothing about topics


def test_cli_writes_jsonl_in_the_interfaces_format(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    assert main(["--seed", "1", "--chatter", "5", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    question = next(line for line in lines if line["kind"] == "question")
    assert set(question) == {"kind", "id", "space", "text", "as_of", "gold", "stale", "type"}
    document = next(line for line in lines if line["kind"] == "document")
    assert {"id", "space", "text", "author", "event_at"} <= set(document)


def test_no_two_documents_of_a_space_share_a_text() -> None:
    docs, _ = _split(generate(7, 2, 4, 3, 60))
    texts = [(d["space"], d["text"]) for d in docs.values()]
    assert len(texts) == len(set(texts))
