"""Tiny files in each benchmark's own format, written where a test asks: the loaders and the smoke run read
them exactly as they read the real development data (which tests never need)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path


def _turns(*pairs: tuple[str, str], answer: int | None = None) -> list[dict[str, object]]:
    turns: list[dict[str, object]] = []
    for i, (user, assistant) in enumerate(pairs):
        turns.append({"role": "user", "content": user, **({"has_answer": True} if answer == i else {})})
        turns.append({"role": "assistant", "content": assistant})
    return turns


def write_longmemeval(path: Path) -> Path:
    """Two scorable questions and one abstention; a repeated session and an empty one; gzip JSON."""
    cooking = _turns(("How long should I roast carrots?", "About 25 minutes at 220 C."))
    bike = _turns(
        ("I finally bought a road bike, a blue Canyon Endurace.", "Congratulations on the new bike!"),
        ("Which saddle height is right for me?", "Start with 0.883 times your inseam."),
        answer=0,
    )
    garden = _turns(("My tomatoes have yellow leaves.", "That is often a nitrogen shortage."))
    dog = _turns(("We adopted a beagle called Pepper last week.", "Pepper sounds lovely!"), answer=0)
    items = [
        {
            "question_id": "q-bike",
            "question_type": "single-session-user",
            "question": "What colour is the road bike I bought?",
            "question_date": "2023/06/23 (Fri) 07:31",
            "answer": "blue",
            "answer_session_ids": ["answer_bike_1"],
            "haystack_session_ids": ["sharegpt_a", "answer_bike_1", "ultrachat_b", "sharegpt_a", "empty_1"],
            "haystack_dates": [
                "2023/05/01 (Mon) 10:00",
                "2023/05/03 (Wed) 11:00",
                "2023/05/05 (Fri) 12:00",
                "2023/05/06 (Sat) 09:00",
                "2023/05/07 (Sun) 09:00",
            ],
            "haystack_sessions": [cooking, bike, garden, cooking, []],
        },
        {
            "question_id": "q-dog",
            "question_type": "knowledge-update",
            "question": "What is the name of the dog we adopted?",
            "question_date": "2023/07/01 (Sat) 08:00",
            "answer": "Pepper",
            "answer_session_ids": ["answer_dog_1"],
            "haystack_session_ids": ["ultrachat_b", "answer_dog_1"],
            "haystack_dates": ["2023/06/01 (Thu) 10:00", "2023/06/20 (Tue) 10:00"],
            "haystack_sessions": [garden, dog],
        },
        {
            "question_id": "q-none_abs",
            "question_type": "single-session-user",
            "question": "What is my cat's name?",
            "question_date": "2023/07/01 (Sat) 08:00",
            "answer": "unknown",
            "answer_session_ids": [],
            "haystack_session_ids": ["ultrachat_b"],
            "haystack_dates": ["2023/06/01 (Thu) 10:00"],
            "haystack_sessions": [garden],
        },
    ]
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(items, handle)
    return path


def write_locomo(path: Path) -> Path:
    """One conversation, two sessions; evidence in every malformed shape the real file has."""
    conversation = {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {
                "speaker": "Caroline",
                "dia_id": "D1:1",
                "text": "Hey Mel! I went to a pottery class yesterday.",
            },
            {
                "speaker": "Melanie",
                "dia_id": "D1:2",
                "text": "Nice! I painted a sunrise over the lake last week.",
            },
            {
                "speaker": "Caroline",
                "dia_id": "D1:3",
                "text": "Look what I made.",
                "blip_caption": "a photo of a clay bowl",
            },
        ],
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [
            {"speaker": "Melanie", "dia_id": "D2:1", "text": "We are going camping at the beach in July."},
            {
                "speaker": "Caroline",
                "dia_id": "D2:2",
                "text": "I started volunteering at the animal shelter.",
            },
        ],
        "session_3_date_time": "9:00 am on 1 July, 2023",
    }
    qa = [
        {"question": "What did Melanie paint?", "answer": "a sunrise", "evidence": ["D1:2"], "category": 4},
        {
            "question": "What did Caroline make?",
            "answer": "a bowl",
            "evidence": ["D1:1; D1:3"],
            "category": 1,
        },
        {"question": "Where is Melanie camping?", "answer": "beach", "evidence": ["D:2:1"], "category": 2},
        {
            "question": "Where does Caroline volunteer?",
            "answer": "shelter",
            "evidence": ["D2:2 D2:99"],
            "category": 3,
        },
        {"question": "What is Caroline's job?", "answer": "none", "evidence": [], "category": 5},
    ]
    path.write_text(json.dumps([{"sample_id": "conv-t", "conversation": conversation, "qa": qa}]), encoding="utf-8")
    return path


def write_hotpotqa(path: Path) -> Path:
    def ctx(i: int, title: str, text: str, gold: bool) -> dict[str, object]:
        return {"id": str(i), "title": title, "paragraph_text": text, "is_supporting": gold}

    rows = [
        {
            "question_id": "h1",
            "question_text": "Which country is the birthplace of the composer of the Moonlight Sonata?",
            "answers_objects": [],
            "contexts": [
                ctx(0, "Moonlight Sonata", "The Moonlight Sonata was composed by Ludwig van Beethoven.", True),
                ctx(1, "Ludwig van Beethoven", "Beethoven was born in Bonn, in Germany.", True),
                ctx(2, "Lake Geneva", "Lake Geneva lies between Switzerland and France.", False),
            ],
        },
        {
            "question_id": "h2",
            "question_text": "Which lake borders both Switzerland and France, and how deep is it?",
            "answers_objects": [],
            "contexts": [
                ctx(0, "Lake Geneva", "Lake Geneva lies between Switzerland and France.", True),
                ctx(1, "Lake Geneva depth", "Lake Geneva reaches a depth of 310 metres.", True),
                ctx(2, "Mont Blanc", "Mont Blanc is the highest mountain of the Alps.", False),
            ],
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def write_musique(path: Path) -> Path:
    """Questions at `path`, the corpus beside it as `<stem>_corpus.json` (HippoRAG's layout)."""

    def para(i: int, title: str, text: str, gold: bool) -> dict[str, object]:
        return {"idx": i, "title": title, "paragraph_text": text, "is_supporting": gold}

    rows = [
        {
            "id": "2hop__1_2",
            "question": "Who founded the record label that signed the band Blue Harbour?",
            "answer": "Ada Lind",
            "answerable": True,
            "paragraphs": [
                para(0, "Blue Harbour", "Blue Harbour is a band signed to Northlight Records.", True),
                para(1, "Northlight Records", "Northlight Records was founded by Ada Lind in 1988.", True),
                para(2, "Harbour", "A harbour is a sheltered body of water.", False),
            ],
        },
        {
            "id": "2hop__3_4",
            "question": "In which city was the founder of Northlight Records born?",
            "answer": "Malmo",
            "answerable": True,
            "paragraphs": [
                para(0, "Northlight Records", "Northlight Records was founded by Ada Lind in 1988.", True),
                para(1, "Ada Lind", "Ada Lind was born in Malmo.", True),
                para(2, "Malmo", "Malmo is a city in southern Sweden.", False),
            ],
        },
    ]
    path.write_text(json.dumps(rows), encoding="utf-8")
    corpus = [{"title": p["title"], "text": p["paragraph_text"]} for r in rows for p in r["paragraphs"]]
    corpus.append({"title": "Oslo", "text": "Oslo is the capital of Norway."})
    path.with_name(path.stem + "_corpus.json").write_text(json.dumps(corpus), encoding="utf-8")
    return path


def write_versioned(path: Path) -> Path:
    """A team lead who changed twice, a distractor, and one question of each type."""
    docs = [
        (
            "d-a",
            "Payments team update: Lena Fischer will lead the Payments team.",
            "Tomas Novak",
            "2022-02-01",
        ),
        (
            "d-b",
            "Lena Fischer hands over: Priya Raman now heads the Payments team.",
            "Hana Sato",
            "2023-03-01",
        ),
        (
            "d-c",
            "Announcement: Mateo Silva takes over as head of the Payments team.",
            "Jonas Berg",
            "2024-04-01",
        ),
        (
            "d-x",
            "The Payments team offsite moves to May; Aisha Khan books the venue.",
            "Aisha Khan",
            "2023-06-01",
        ),
    ]
    lines: list[dict[str, object]] = [
        {"kind": "document", "id": i, "space": "s1", "text": t, "author": a, "event_at": f"{d}T09:00:00Z"}
        for i, t, a, d in docs
    ]
    lines += [
        {"kind": "question", "id": "q1", "space": "s1", "text": "Who leads the Payments team now?",
         "as_of": None, "gold": ["d-c"], "stale": ["d-a", "d-b"], "type": "current"},
        {"kind": "question", "id": "q2", "space": "s1", "text": "Who led the Payments team in autumn 2022?",
         "as_of": "2022-10-01T00:00:00Z", "gold": ["d-a"], "stale": [], "type": "as_of"},
        {"kind": "question", "id": "q3", "space": "s1", "text": "When did Priya Raman start heading Payments?",
         "as_of": None, "gold": ["d-b"], "stale": [], "type": "change"},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


WRITERS = {
    "longmemeval": ("lme.json.gz", write_longmemeval),
    "locomo": ("locomo.json", write_locomo),
    "hotpotqa": ("hotpot.jsonl", write_hotpotqa),
    "musique": ("musique.json", write_musique),
    "versioned": ("versioned.jsonl", write_versioned),
}


def write_fixture(dataset: str, folder: Path) -> Path:
    name, writer = WRITERS[dataset]
    return writer(folder / name)
