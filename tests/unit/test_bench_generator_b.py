"""The second versioned generator: gold follows its stated rules, and it shares nothing with the first."""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

import bench.generate_versioned as set_a
import bench.generate_versioned_b as set_b
from graphmem.bench.quality.datasets import load_benchmark


def _split(lines: list[dict]) -> tuple[dict[str, dict], list[dict]]:
    docs = {line["id"]: line for line in lines if line["kind"] == "document"}
    return docs, [line for line in lines if line["kind"] == "question"]


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


@pytest.fixture(scope="module", params=[7, 11, 23])
def data(request: pytest.FixtureRequest) -> set_b.DataSet:
    return set_b.build(request.param)


def test_same_seed_same_data_other_seed_other_data() -> None:
    assert set_b.generate(7) == set_b.generate(7)
    assert set_b.generate(7) != set_b.generate(8)


def test_size_is_like_the_first_set_and_the_three_types_are_balanced(data: set_b.DataSet) -> None:
    docs, questions = _split(data.lines)
    assert 180 <= len(docs) <= 240
    assert 130 <= len(questions) <= 150
    types = Counter(q["type"] for q in questions)
    assert set(types) == {"current", "as_of", "change"} and len(set(types.values())) == 1


def test_every_gold_and_stale_id_is_a_document_of_the_questions_space(data: set_b.DataSet) -> None:
    docs, questions = _split(data.lines)
    for q in questions:
        for ref in q["gold"] + q["stale"]:
            assert ref in docs and docs[ref]["space"] == q["space"]


def test_current_gold_is_the_latest_value_setting_document_of_its_slot(data: set_b.DataSet) -> None:
    docs, questions = _split(data.lines)
    for q in (q for q in questions if q["type"] == "current"):
        slot = data.slots[data.question_slot[q["id"]]]
        setting = [doc for _, doc in slot.setting_docs()]
        assert q["gold"] == [setting[-1]]
        assert sorted(q["stale"]) == sorted(setting[:-1])
        assert all(_at(docs[s]["event_at"]) < _at(docs[setting[-1]]["event_at"]) for s in q["stale"])


def test_as_of_gold_is_the_latest_value_setting_document_dated_by_as_of(data: set_b.DataSet) -> None:
    docs, questions = _split(data.lines)
    for q in (q for q in questions if q["type"] == "as_of"):
        as_of = _at(q["as_of"])
        slot = data.slots[data.question_slot[q["id"]]]
        before = [doc for at, doc in slot.setting_docs() if at <= as_of]
        assert q["gold"] == [before[-1]]
        assert _at(docs[before[-1]]["event_at"]) <= as_of
        assert sorted(q["stale"]) == sorted(before[:-1])
        # never inside a wrong record's window: the latest record by as_of is a right one
        assert before[-1] in {v.doc for v in slot.versions}


def _states(text: str, value: str) -> bool:
    """The value as a whole item of the text (so "20" is not found in "2024-05-03")."""
    return re.search(rf"(?<![\w:/-]){re.escape(value)}(?![\w:/-])", text) is not None


def test_change_gold_introduced_the_asked_value(data: set_b.DataSet) -> None:
    docs, questions = _split(data.lines)
    for q in (q for q in questions if q["type"] == "change"):
        slot = data.slots[data.question_slot[q["id"]]]
        (asked,) = [v for v in slot.versions if _states(q["text"], v.value)]
        assert q["gold"] == [asked.doc] and q["stale"] == []
        assert _states(docs[asked.doc]["text"], asked.value)
        # no record of the slot dated earlier states it (the wrong records state other values)
        earlier = [doc for at, doc in slot.setting_docs() if at < asked.at]
        assert not [doc for doc in earlier if _states(docs[doc]["text"], asked.value)]


def test_values_change_one_to_four_times_and_corrections_and_rejected_plans_occur(data: set_b.DataSet) -> None:
    docs, _ = _split(data.lines)
    changes = Counter(len(slot.versions) - 1 for slot in data.slots.values())
    assert set(changes) <= {1, 2, 3, 4} and len(changes) >= 3
    assert sum(1 for s in data.slots.values() for v in s.versions if v.wrong_doc) >= 5
    assert sum(1 for d in docs.values() if "not adopted" in d["text"] or "not agreed" in d["text"]) >= 1
    subjects_per_space = Counter(key.rsplit(":", 1)[0] for key in data.slots)
    assert min(subjects_per_space.values()) >= 3  # several attributes per subject


def test_distractors_are_many_and_ids_follow_dates(data: set_b.DataSet) -> None:
    docs, _ = _split(data.lines)
    setting = {doc for slot in data.slots.values() for _, doc in slot.setting_docs()}
    assert len(docs) - len(setting) >= 50
    ordered = sorted(docs.values(), key=lambda d: (d["space"], d["event_at"]))
    assert [d["id"] for d in ordered] == sorted(docs)  # ids follow dates: they say nothing about topics


def test_no_two_documents_of_a_space_share_a_text(data: set_b.DataSet) -> None:
    docs, _ = _split(data.lines)
    texts = [(d["space"], d["text"]) for d in docs.values()]
    assert len(texts) == len(set(texts))


def _name_tokens(names: list[str]) -> set[str]:
    return {t for name in names for t in re.split(r"[^a-z]+", name.lower()) if len(t) >= 2}


def _names_a() -> list[str]:
    names = list(set_a.PEOPLE) + list(set_a.ORG_NAMES)
    for kind in set_a.KINDS:
        names += list(kind.entities) + list(kind.values)
    return names


def _names_b() -> list[str]:
    names: list[str] = []
    for space in set_b.SPACES:
        names += [space.name, *space.subjects, *space.authors]
        for attribute in space.attributes:
            names += list(attribute.values)
    return names


def test_no_name_shared_with_the_first_set() -> None:
    assert _name_tokens(_names_a()) & _name_tokens(_names_b()) == set()


def test_names_are_lower_case_and_many_hyphenated() -> None:
    names = _names_b()
    assert all(name == name.lower() for name in names)
    assert sum("-" in name for name in names) >= len(names) // 2


def _template_grams(template: str, n: int = 3) -> set[tuple[str, ...]]:
    """Word n-grams of a template's literal text; a placeholder breaks a run."""
    grams: set[tuple[str, ...]] = set()
    for literal, *_ in string.Formatter().parse(template):
        words = re.findall(r"[a-z']+", literal.lower())
        grams |= {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}
    return grams


def _templates_a() -> list[str]:
    out = list(set_a.CHATTER)
    for kind in set_a.KINDS:
        out += [*kind.announce, *kind.ask_current, *kind.ask_as_of, *kind.ask_change, *kind.distract]
    return out


def _templates_b() -> list[str]:
    out = [*set_b.PERSON_TEMPLATES, *set_b.SETTING_TEMPLATES, *set_b.ERRATA, *set_b.PROPOSALS, *set_b.ASKED]
    out += [*set_b.ASK_CURRENT, *set_b.ASK_AS_OF, *set_b.ASK_CHANGE]
    for space in set_b.SPACES:
        out += [*space.subject_chatter, *space.chatter]
    return out


def test_no_template_wording_shared_with_the_first_set() -> None:
    grams_a = set().union(*(_template_grams(t) for t in _templates_a()))
    grams_b = set().union(*(_template_grams(t) for t in _templates_b()))
    assert grams_a & grams_b == set()
    assert not set(_templates_a()) & set(_templates_b())


def test_the_first_sets_cue_phrases_never_appear(data: set_b.DataSet) -> None:
    cues = ("is now", "takes over", "resolved:", "replacing", "subject:", "effective", "as of today", "from now on")
    texts = [line["text"].lower() for line in data.lines]
    assert not [cue for cue in cues if any(cue in text for text in texts)]


def test_at_least_six_templates_per_statement_kind_of_every_required_shape() -> None:
    for templates in (set_b.PERSON_TEMPLATES, set_b.SETTING_TEMPLATES):
        assert len(templates) >= 6
        assert any(": {value}" in t for t in templates)  # key: value lines
        assert any(t.startswith("|") for t in templates)  # tables
        assert any(" set to " in t or " appointed " in t or " held by " in t for t in templates)  # passive
        assert any(t.startswith("{subject}\n") or t.startswith("{subject},") for t in templates)  # title only
        first_line_only = [t for t in templates if "{subject}" in t.split("\n", 1)[0] and t.count("{subject}") == 1]
        assert any("\n" in t for t in first_line_only)


def test_cli_output_loads_as_the_versioned_dataset(tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl"
    assert set_b.main(["--seed", "7", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    question = next(line for line in lines if line["kind"] == "question")
    assert set(question) == {"kind", "id", "space", "text", "as_of", "gold", "stale", "type"}
    bench = load_benchmark("versioned", out)
    assert [s.name for s in bench.scopes] == ["ward-roster", "line-schedule"]
    assert bench.notes["gold_ids_without_document"] == 0
    assert len(bench.questions) == sum(1 for line in lines if line["kind"] == "question")
