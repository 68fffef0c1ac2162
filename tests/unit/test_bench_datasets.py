"""Benchmark loaders: gold mapped to the units graphmem will see, leaks and malformed entries handled."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graphmem.bench.quality.datasets import load_benchmark
from graphmem.errors import InvalidInput
from tests.support.bench_fixtures import write_fixture

SHARED_DATA = Path(os.environ.get("GRAPHMEM_BENCH_DATA", "/work/shared/data"))


def test_longmemeval_renames_session_ids_so_gold_ids_do_not_leak(tmp_path: Path) -> None:
    bench = load_benchmark("longmemeval", write_fixture("longmemeval", tmp_path))
    assert [q.id for q in bench.questions] == ["q-bike", "q-dog"]  # the _abs question is left out
    assert bench.notes["abstention_excluded"] == 1
    keys = [s.key for scope in bench.scopes for s in scope.sessions]
    turn_keys = [t.key for scope in bench.scopes for s in scope.sessions for t in s.turns]
    assert not any("answer" in k or "sharegpt" in k or "ultrachat" in k for k in keys + turn_keys)
    bike = bench.scopes[0]
    gold = bike.questions[0].gold_sessions
    assert len(gold) == 1
    gold_session = next(s for s in bike.sessions if s.key == gold[0])
    assert "blue Canyon" in gold_session.text
    assert bike.questions[0].gold_units == (gold_session.turns[0].key,)  # the has_answer turn


def test_longmemeval_keeps_a_repeated_session_twice_and_skips_an_empty_one(tmp_path: Path) -> None:
    bench = load_benchmark("longmemeval", write_fixture("longmemeval", tmp_path))
    bike = bench.scopes[0]
    texts = [s.text for s in bike.sessions]
    assert len(texts) == 4 and texts[0] == texts[3]  # the repeat stays, under its own alias
    assert bike.sessions[0].key != bike.sessions[3].key
    assert bench.notes["empty_sessions_skipped"] == 1
    assert bike.sessions[0].started_at == "2023-05-01T10:00:00Z"
    assert bike.questions[0].asked_at == "2023-06-23T07:31:00Z"
    assert bike.questions[0].as_of is None  # the question date is context, never an as-of bound


def test_longmemeval_limit_counts_scorable_questions(tmp_path: Path) -> None:
    bench = load_benchmark("longmemeval", write_fixture("longmemeval", tmp_path), limit=1)
    assert [q.id for q in bench.questions] == ["q-bike"]


def test_locomo_parses_malformed_evidence_and_counts_what_it_drops(tmp_path: Path) -> None:
    bench = load_benchmark("locomo", write_fixture("locomo", tmp_path))
    by_text = {q.text: q for q in bench.questions}
    assert by_text["What did Caroline make?"].gold_units == ("D1:1", "D1:3")  # "D1:1; D1:3"
    assert by_text["Where is Melanie camping?"].gold_units == ("D2:1",)  # "D:2:1"
    assert by_text["Where does Caroline volunteer?"].gold_units == ("D2:2",)  # "D2:2 D2:99"
    assert by_text["What did Caroline make?"].gold_sessions == ("D1",)
    assert by_text["What did Melanie paint?"].type == "single-hop"
    assert bench.notes["evidence_ids_dropped_unknown_turn"] == 1  # D2:99
    assert bench.notes["questions_skipped_no_evidence"] == 1
    assert len(bench.questions) == 4
    scope = bench.scopes[0]
    assert [s.key for s in scope.sessions] == ["D1", "D2"]  # session 3 has a date and no turns
    assert scope.sessions[1].started_at == "2023-06-27T10:37:00Z"
    caption_turn = scope.sessions[0].turns[2]
    assert caption_turn.text.startswith("Caroline: ") and "clay bowl" in caption_turn.text


def test_hotpotqa_pools_each_paragraph_once_with_its_title(tmp_path: Path) -> None:
    bench = load_benchmark("hotpotqa", write_fixture("hotpotqa", tmp_path))
    (scope,) = bench.scopes
    assert len(scope.documents) == 5  # "Lake Geneva" appears in both questions, pooled once
    keys = {d.key for d in scope.documents}
    assert all(set(q.gold_units) <= keys and len(q.gold_units) == 2 for q in bench.questions)
    assert any(d.text.startswith("Ludwig van Beethoven\n") for d in scope.documents)


def test_musique_reads_the_corpus_beside_the_questions_unless_limited(tmp_path: Path) -> None:
    path = write_fixture("musique", tmp_path)
    full = load_benchmark("musique", path)
    assert len(full.scopes[0].documents) == 6  # 5 distinct question paragraphs + Oslo from the corpus
    assert [q.type for q in full.questions] == ["2-hop", "2-hop"]
    limited = load_benchmark("musique", path, limit=1)
    assert len(limited.scopes[0].documents) == 3
    assert len(limited.questions) == 1


def test_offset_gives_a_disjoint_half_with_only_its_own_paragraphs(tmp_path: Path) -> None:
    for dataset in ("hotpotqa", "musique"):
        (tmp_path / dataset).mkdir()
        path = write_fixture(dataset, tmp_path / dataset)
        first = load_benchmark(dataset, path, limit=1)
        second = load_benchmark(dataset, path, limit=1, offset=1)
        assert [q.id for q in first.questions] != [q.id for q in second.questions]
        assert len(second.questions) == 1
        keys = {d.key for d in second.scopes[0].documents}
        assert set(second.questions[0].gold_units) <= keys
        assert len(keys) < len(load_benchmark(dataset, path).scopes[0].documents)
    with pytest.raises(InvalidInput, match="--offset"):
        load_benchmark("versioned", write_fixture("versioned", tmp_path), offset=1)


def test_versioned_reads_documents_and_questions_per_space(tmp_path: Path) -> None:
    bench = load_benchmark("versioned", write_fixture("versioned", tmp_path))
    (scope,) = bench.scopes
    assert scope.name == "s1" and len(scope.documents) == 4
    as_of = next(q for q in bench.questions if q.type == "as_of")
    assert as_of.as_of == "2022-10-01T00:00:00Z" and as_of.gold_units == ("d-a",)
    current = next(q for q in bench.questions if q.type == "current")
    assert current.stale == ("d-a", "d-b") and current.as_of is None


def test_versioned_reads_the_generator_output(tmp_path: Path) -> None:
    from bench.generate_versioned import main as generate

    out = tmp_path / "gen.jsonl"
    assert generate(["--seed", "3", "--orgs", "2", "--out", str(out)]) == 0
    bench = load_benchmark("versioned", out)
    assert [s.name for s in bench.scopes] == ["org1", "org2"]
    assert bench.notes["gold_ids_without_document"] == 0
    assert {q.type for q in bench.questions} == {"current", "as_of", "change"}


@pytest.mark.parametrize(
    ("dataset", "content", "field"),
    [
        ("nosuch", "", "--dataset"),
        ("locomo", "{not json", "--data"),
        ("versioned", '{"kind": "memo"}\n', "--data"),
        ("hotpotqa", "not json\n", "--data"),
    ],
)
def test_bad_input_names_the_flag(tmp_path: Path, dataset: str, content: str, field: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InvalidInput) as info:
        load_benchmark(dataset, path)
    assert field in str(info.value)


def test_missing_file_and_bad_limit_name_their_flags(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="--data"):
        load_benchmark("locomo", tmp_path / "absent.json")
    with pytest.raises(InvalidInput, match="--limit"):
        load_benchmark("versioned", write_fixture("versioned", tmp_path), limit=0)


# --- the real development files, when this machine has them --------------------------------------------
def _shared(name: str) -> Path:
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"{path} not present")
    return path


def test_real_longmemeval_never_shows_an_answer_prefixed_id() -> None:
    bench = load_benchmark("longmemeval", _shared("longmemeval/longmemeval_s_dev60.json.gz"), limit=5)
    assert len(bench.questions) == 5
    for scope in bench.scopes:
        assert not any(s.key.startswith("answer") for s in scope.sessions)
        assert set(scope.questions[0].gold_sessions) <= {s.key for s in scope.sessions}


def test_real_locomo_counts_its_malformed_evidence() -> None:
    bench = load_benchmark("locomo", _shared("locomo/locomo_dev5.json"))
    assert len(bench.questions) + bench.notes["questions_skipped_no_evidence"] == 999
    assert bench.notes["questions_skipped_no_evidence"] >= 2


def test_real_musique_every_supporting_paragraph_is_in_the_pool() -> None:
    bench = load_benchmark("musique", _shared("musique/hipporag_musique_train100.json"))
    keys = {d.key for d in bench.scopes[0].documents}
    assert len(keys) == 1890
    assert all(set(q.gold_units) <= keys for q in bench.questions)


def test_sample_spreads_questions_across_the_file_and_keeps_pools_whole(tmp_path: Path) -> None:
    from graphmem.bench.quality.datasets import sample_benchmark

    bench = load_benchmark("locomo", write_fixture("locomo", tmp_path))
    sampled = sample_benchmark(bench, 2)
    assert [q.text for q in sampled.questions] == ["What did Melanie paint?", "Where is Melanie camping?"]
    assert sampled.notes["questions_sampled_out"] == 2
    assert len(sampled.scopes[0].sessions) == len(bench.scopes[0].sessions)
    assert sample_benchmark(bench, 10) is bench
    with pytest.raises(InvalidInput, match="--sample"):
        sample_benchmark(bench, 0)
