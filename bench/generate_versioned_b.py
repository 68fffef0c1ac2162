#!/usr/bin/env python3
"""A second, independent development set for `graphmem bench quality --dataset versioned`: a hospital's
ward roster and a short-sea shipping line's vessel schedule, written in lower case with hyphenated names,
key: value cards, pipe tables, telex lines, handover sheets and errata. It shares only the JSONL format
with `bench/generate_versioned.py` (no names, templates, genres or domain); a unit test checks that.

Format-level rules, fixed before graphmem was run on this set:

- A *slot* is (subject, attribute), e.g. (ward-7b, charge nurse). Each slot has 2-5 values, each set by
  one *value-setting* document whose `event_at` is the moment the value takes effect (no document
  announces a change for a later date). Values within a slot never repeat.
- Some values are first recorded wrongly and corrected 1-3 days later by an erratum that names both the
  wrong and the right value. The erratum is the value-setting document of the right value; the wrong
  record is a value-setting document too (it set a value, wrongly), and it is stale from then on.
- `current`: gold is the slot's latest value-setting document; stale is every other value-setting
  document of the slot (earlier values and wrong records).
- `as_of`: gold is the slot's latest value-setting document dated <= `as_of`; stale is every value-setting
  document of the slot dated before the gold. `as_of` dates never fall between a wrong record and its
  erratum, nor within two days of a value-setting document. Anything in the ranking dated after `as_of`
  (any document, not only the slot's) is a future leak.
- `change`: gold is the document that introduced the asked value (the first value-setting document
  stating it; an erratum when the value came in through one); no stale ids. Wrong values are never asked.
- Distractors about the same subjects never set a slot's value: other topics, questions asked in a
  document, and proposals that were not adopted (their values are never in force for that slot).
- One question of each type per slot: the three types are balanced.

    python bench/generate_versioned_b.py --seed 7 --out /tmp/versioned_b.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Attribute:
    """One changing property of a subject: how it is named in prose, in a card and in a question."""

    name: str
    noun: str  # in questions: "the {noun} for ward-7b"
    key: str  # in cards and tables: "{key}: {value}"
    phrase: str  # in sentences: "{phrase} on ward-7b is ..."
    values: tuple[str, ...]
    person: bool = False
    plural: bool = False


@dataclass(frozen=True)
class Space:
    """One scope of the data set: its subjects, what changes about them, who writes, and the background."""

    name: str
    unit: str  # the table column naming a subject
    forum: tuple[str, ...]
    subjects: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    per_subject: int  # attributes tracked per subject
    authors: tuple[str, ...]
    fillers: tuple[str, ...]
    subject_chatter: tuple[str, ...]
    chatter: tuple[str, ...]
    errands: tuple[str, ...]


NURSES = (
    "sr. adeyemi-lutz",
    "n. kowalczyk-hale",
    "charge nurse o'riordan",
    "sr. mbatha-quist",
    "t. valdivia-onu",
    "sr. hjelmstad",
    "r. nakashima-price",
    "sr. ferreira-doyle",
    "m. abiodun-gray",
    "sr. lindgren-obi",
    "p. tawhiri-west",
    "sr. castellanos",
)
CONSULTANTS = (
    "dr. okonkwo-reyes",
    "dr. haddad-sorensen",
    "dr. mbeki-tan",
    "dr. quiroga-ellis",
    "dr. aaltonen",
    "dr. szabo-mensah",
    "dr. ravindran-holt",
    "dr. de-souza-kim",
    "dr. whitlock-ayodele",
    "dr. pereira-nagy",
)
MASTERS = (
    "capt. o'hare-lindqvist",
    "capt. ferreira-nakamura",
    "capt. mcbride-osei",
    "capt. van-houten",
    "capt. rautio-banks",
    "capt. delacroix-ume",
    "capt. strand-kaur",
    "capt. ibekwe-moss",
    "capt. halloran",
    "capt. teixeira-lowe",
)
ENGINEERS = (
    "c/e gundersen-ade",
    "c/e pacheco-wray",
    "c/e mwangi-holt",
    "c/e laszlo-ferri",
    "c/e achterberg",
    "c/e oyelaran-fisk",
    "c/e brannigan-li",
    "c/e kvist-amadi",
    "c/e urquhart-dlamini",
    "c/e zelenko",
)

HOSPITAL = Space(
    name="ward-roster",
    unit="ward",
    forum=("bed meeting", "divisional huddle", "nursing board", "site safety call"),
    subjects=("ward-7b", "ward-3a", "ward-12", "ward-4c", "icu-east", "amu-2", "ward-9d", "maternity-2"),
    attributes=(
        Attribute("charge-nurse", "charge nurse", "charge nurse", "the charge nurse", NURSES, person=True),
        Attribute(
            "consultant", "on-call consultant", "consultant on call", "the on-call consultant", CONSULTANTS, True
        ),
        Attribute("beds", "bed count", "beds", "the bed count", ("14", "16", "18", "20", "22", "24", "26", "28")),
        Attribute(
            "visiting",
            "visiting hours",
            "visiting",
            "visiting hours",
            (
                "11:00-19:00",
                "14:00-17:00 & 18:30-20:00",
                "open 08:00-21:00",
                "15:00-20:00",
                "13:30-19:30",
                "10:00-12:00 & 16:00-20:00",
                "14:00-20:00",
            ),
            plural=True,
        ),
        Attribute(
            "location",
            "ward location",
            "location",
            "the ward location",
            (
                "level 3, jubilee wing",
                "level 1, old block",
                "level 6, tower-b",
                "level 2, riverside annexe",
                "level 4, tower-a",
                "level 5, cedar block",
            ),
        ),
    ),
    per_subject=3,
    authors=(
        "bed-manager",
        "j.achterberg-ross",
        "k.oyelowo",
        "site-coordinator",
        "l.mcintyre-vaz",
        "matron.east",
        "w.kaminski-obi",
        "rota-office",
        "h.tavita",
        "d.esquivel-park",
        "duty-desk",
        "f.nwachukwu-hart",
    ),
    fillers=(
        "side room 4 closed for deep clean",
        "pharmacy top-up due thursday",
        "two patients awaiting transport home",
        "resus trolley checked and signed",
        "one agency hca on lates",
        "blood fridge alarm tested",
    ),
    subject_chatter=(
        "{subject} passed its hand-hygiene audit this month, well done all.",
        "fire drill on {subject} {dow} at 10:00, please brief relatives.",
        "{subject}: the bladder scanner is back from repair.",
        "{subject} is short of pulse oximeters; stores notified by {author}.",
        "{person} ran the sepsis teaching session on {subject} {dow}; slides on the shared drive.",
        "{subject} had a norovirus scare, swabs negative, bays reopened.",
    ),
    chatter=(
        "car park b closed for resurfacing {dow}; use the multi-storey.",
        "canteen menu this week: lentil soup, jacket potatoes, fish on friday.",
        "switchboard upgrade overnight {dow}; bleeps may drop for ten minutes.",
        "mandatory training window closes at month end, check your e-learning.",
        "lost property: a blue lanyard with two keys, ask at main reception.",
        "the staff choir meets in the chapel {dow} at 17:30.",
        "payroll cut-off moved to the 18th for the bank holiday.",
        "new sharps bins arriving; old ones collected {dow}.",
    ),
    errands=("bed board", "safer staffing return", "patient flow list", "relatives' leaflet"),
)

SHIPPING = Space(
    name="line-schedule",
    unit="vessel",
    forum=("ops call", "fleet review", "marine board", "chartering desk"),
    subjects=("mv sea-lark", "mv kittiwake-ii", "mv tern-haven", "mv oyster-bay", "mv gannet-rock", "mv petrel-iii"),
    attributes=(
        Attribute("master", "master", "master", "the master", MASTERS, person=True),
        Attribute("engineer", "chief engineer", "chief engineer", "the chief engineer", ENGINEERS, person=True),
        Attribute(
            "loop",
            "service loop",
            "loop",
            "the service loop",
            (
                "loop n2 (hull-zeebrugge)",
                "loop k4 (aberdeen-bergen)",
                "biscay shuttle (bilbao-portsmouth)",
                "loop w1 (cork-brest)",
                "loop e3 (felixstowe-gdynia)",
                "loop s5 (leixoes-tangier)",
            ),
        ),
        Attribute(
            "berth",
            "home berth",
            "home berth",
            "the home berth",
            (
                "berth 14, albert quay",
                "berth 3, west pier",
                "berth 22, container terminal",
                "berth 9, ro-ro ramp",
                "berth 17, north basin",
                "berth 6, east quay",
            ),
        ),
        Attribute(
            "slot",
            "departure slot",
            "sailing",
            "the weekly departure slot",
            ("tue 06:00", "fri 22:30", "sun 14:15", "wed 19:45", "mon 04:30", "thu 11:10"),
        ),
    ),
    per_subject=4,
    authors=(
        "ops-desk",
        "a.rosenthal-obi",
        "marine-super",
        "t.haugland",
        "crewing",
        "p.nascimento-ryle",
        "s.adebayo-lund",
        "port-captain",
        "r.kilbride",
        "chartering",
        "e.mutasa-voss",
    ),
    fillers=(
        "reefer plugs checked, all 40 live",
        "lashing gear renewed on deck",
        "pilot boarding moved to the outer buoy",
        "stores delivered alongside",
        "ballast water log signed",
        "gangway net replaced",
    ),
    subject_chatter=(
        "{subject} bunkered 410 t at the fuel jetty {dow}.",
        "{subject}: lifeboat drill completed, no findings.",
        "{subject} delayed three hours by fog off the breakwater.",
        "{subject}: hold 2 hatch cover seal replaced by the yard.",
        "{person} gave the fire-fighting refresher aboard {subject} {dow}.",
        "{subject} passed port state inspection with one minor observation.",
    ),
    chatter=(
        "port office closed for the bank holiday; emergencies to the duty phone.",
        "new tide tables posted in the crew mess.",
        "weather: gale warning for the approaches tonight.",
        "payroll queries to the shore office please, not to the bridge.",
        "the seafarers' centre quiz night is {dow} at 20:00.",
        "customs will sample reefer boxes at random this week.",
        "the gate-in cut-off for export boxes moves to 16:00 on {dow}.",
        "crane 3 out of service for a brake overhaul until {dow}.",
    ),
    errands=("crew list", "port agent", "cargo planner", "voyage report"),
)

SPACES = (HOSPITAL, SHIPPING)

# Statements that set a person attribute. Some carry no change cue, some are cards or tables, some are
# passive, some name the subject only in the first line.
PERSON_TEMPLATES = (
    "{subject} rota card\n{key}: {value}\nfrom: {date_iso}\nsigned: {author}",
    "| {unit} | post | name | from |\n|---|---|---|---|\n| {subject} | {key} | {value} | {date_short} |",
    "{value} has been appointed {noun} on {subject}{after_prev}.",
    "{subject}, {date_long}\n\nhandover:\n- {noun} on the rota: {value}\n- {filler}",
    "{value} \u2014 {noun}, {subject}. queries via {author}.",
    "{subject} // {key} {value} from {date_short} // {author}",
    "welcome to {value}, who joins {subject} as {noun}{from_prev}.",
    "the {noun} post on {subject} is held by {value}.",
)
SETTING_TEMPLATES = (
    "{subject} particulars\n{key}: {value}\nupdated {date_iso} by {author}",
    "| {unit} | item | setting | since |\n|---|---|---|---|\n| {subject} | {key} | {value} | {date_short} |",
    "{phrase} for {subject} {be_perfect} set to {value} by the {forum}.",
    "{subject}\n{date_long}\n\n{phrase} {be} {value}. {filler}.",
    "{subject}: {value} ({key}).",
    "{subject} // {key} {value} wef {date_short} // {author}",
    "agreed at the {forum}: {subject} goes to {value} for {key}{instead_prev}.",
    "{phrase} on {subject} {be} {value}, as confirmed by {author}.",
)
ERRATA = (
    "correction to the {subject} entry of {wrong_date}: {key} should read {value}, not {wrong}. apologies, {author}",
    "{subject}: the earlier note gave {key} as {wrong}; that was a typo, the right entry is {value}.",
    "erratum {date_iso}\n{subject} / {key}\nwas: {wrong}\nread: {value}",
    "please disregard {wrong} for {subject} ({key}) in the last bulletin; it should have said {value}.",
)
PROPOSALS = (
    "proposal for the {forum}: {key} on {subject} to become {other}? not agreed, revisit next quarter.",
    "{author} floated {other} as {key} for {subject}; declined at the {forum}.",
    "draft only, not adopted \u2014 {subject} {key}: {other}",
    "option considered for {subject}: {other} as {key}. parked, no change made.",
)
ASKED = (
    "anyone know the {key} for {subject} this week? asking for the {errand}.",
    "{subject}: has the {noun} changed lately? the {errand} needs it by {dow}.",
    "quick one \u2014 where do i find the {noun} for {subject}?",
)

ASK_CURRENT = (
    "{wh} {be} the {noun} for {subject} at present?",
    "{subject}: latest {noun}?",
    "{wh} {be} the {noun} on {subject} these days?",
    "remind me of the {noun} for {subject}.",
    "which {noun} should we put down for {subject}?",
)
ASK_AS_OF = (
    "{wh} {be_past} the {noun} for {subject} on {as_of_text}?",
    "back on {as_of_text}, {wh} {be_past} {subject}'s {noun}?",
    "which {noun} {be_past} on record for {subject} at {as_of_text}?",
)
ASK_CHANGE = (
    "which record first gave {value} as the {noun} for {subject}?",
    "since when has {subject} had {value} as its {noun}, and who wrote it up?",
    "where was {value} first set down as {subject}'s {noun}?",
)

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
START = datetime(2023, 9, 4, tzinfo=UTC)
SPAN_DAYS = 640


def _date_long(when: datetime) -> str:
    return f"{when.day} {when.strftime('%B').lower()} {when.year}"


def _date_short(when: datetime) -> str:
    return when.strftime("%d/%m/%y")


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Version:
    """One value of a slot: the document that set it, and the wrong record an erratum fixed, if any."""

    value: str
    doc: str
    at: datetime
    wrong_doc: str | None = None
    wrong_at: datetime | None = None


@dataclass
class Slot:
    subject: str
    attribute: Attribute
    versions: list[Version] = field(default_factory=list)

    def setting_docs(self) -> list[tuple[datetime, str]]:
        """Every value-setting document of the slot (wrong records included), oldest first."""
        docs = [(v.at, v.doc) for v in self.versions]
        docs += [(v.wrong_at, v.wrong_doc) for v in self.versions if v.wrong_doc and v.wrong_at]
        return sorted(docs)


@dataclass
class DataSet:
    """The JSONL lines, plus each question's slot (for tests; not written out)."""

    lines: list[dict[str, Any]]
    slots: dict[str, Slot]  # slot key -> slot, with document ids as written
    question_slot: dict[str, str]  # question id -> slot key


class SpaceGenerator:
    def __init__(self, rng: random.Random, space: Space) -> None:
        self.rng = rng
        self.space = space
        self.docs: list[dict[str, Any]] = []
        self.texts: set[str] = set()
        self.questions: list[dict[str, Any]] = []
        self.slots: dict[str, Slot] = {}
        self.question_slot: dict[str, str] = {}

    def _when(self, day: int) -> datetime:
        return START + timedelta(days=day, hours=self.rng.randint(6, 21), minutes=self.rng.randint(0, 59))

    def _doc(self, text: str, author: str, when: datetime, source: str) -> str:
        n = 1
        base = text
        while text in self.texts:  # a repeated text would be stored once: keep texts distinct
            text = f"{base}\n[{_date_short(when)}-{n}]"
            n += 1
        self.texts.add(text)
        doc_id = f"tmp-{len(self.docs)}"
        self.docs.append(
            {
                "kind": "document",
                "id": doc_id,
                "space": self.space.name,
                "text": text,
                "author": author,
                "event_at": _iso(when),
                "source": source,
            }
        )
        return doc_id

    def _fields(self, subject: str, attribute: Attribute, when: datetime) -> dict[str, str]:
        return {
            "subject": subject,
            "unit": self.space.unit,
            "noun": attribute.noun,
            "key": attribute.key,
            "phrase": attribute.phrase,
            "be": "are" if attribute.plural else "is",
            "be_perfect": "have been" if attribute.plural else "has been",
            "be_past": "were" if attribute.plural else "was",
            "wh": "who" if attribute.person else "what",
            "date_long": _date_long(when),
            "date_short": _date_short(when),
            "date_iso": when.strftime("%Y-%m-%d"),
            "forum": self.rng.choice(self.space.forum),
            "filler": self.rng.choice(self.space.fillers),
            "errand": self.rng.choice(self.space.errands),
            "dow": self.rng.choice(DAYS),
        }

    def _statement(self, slot: Slot, value: str, prev: str | None, when: datetime) -> str:
        attribute = slot.attribute
        author = self.rng.choice(self.space.authors)
        fields = self._fields(slot.subject, attribute, when)
        mention_prev = prev is not None and self.rng.random() < 0.4
        fields |= {
            "value": value,
            "author": author,
            "after_prev": f", after {prev} moved on" if mention_prev else "",
            "from_prev": f" in place of {prev}" if mention_prev else "",
            "instead_prev": f" instead of {prev}" if mention_prev else "",
        }
        templates = PERSON_TEMPLATES if attribute.person else SETTING_TEMPLATES
        index = self.rng.randrange(len(templates))
        source = ("card", "table", "bulletin", "handover", "note", "telex", "bulletin", "note")[index]
        return self._doc(templates[index].format(**fields), author, when, source)

    def _erratum(self, slot: Slot, value: str, wrong: str, wrong_at: datetime, when: datetime) -> str:
        author = self.rng.choice(self.space.authors)
        fields = self._fields(slot.subject, slot.attribute, when)
        fields |= {"value": value, "wrong": wrong, "wrong_date": _date_long(wrong_at), "author": author}
        return self._doc(self.rng.choice(ERRATA).format(**fields), author, when, "erratum")

    def slot(self, subject: str, attribute: Attribute) -> None:
        key = f"{self.space.name}:{subject}:{attribute.name}"
        slot = Slot(subject, attribute)
        self.slots[key] = slot
        changes = self.rng.choices((1, 2, 3, 4), weights=(50, 30, 12, 8))[0]
        pool = list(attribute.values)
        count = min(changes + 1, len(pool))
        chosen = self.rng.sample(pool, min(len(pool), count + 2))
        values, spare = chosen[:count], chosen[count:]  # spare[0]: a wrong record, spare[1]: a rejected plan
        days = sorted(self.rng.sample(range(10, SPAN_DAYS - 40, 24), count))
        prev: str | None = None
        for value, day in zip(values, days, strict=True):
            if self.rng.random() < 0.12 and spare:
                wrong_at = self._when(day)
                wrong_doc = self._statement(slot, spare[0], prev, wrong_at)
                at = self._when(day + self.rng.randint(1, 3))
                doc = self._erratum(slot, value, spare[0], wrong_at, at)
                slot.versions.append(Version(value, doc, at, wrong_doc, wrong_at))
                spare = spare[1:]
            else:
                at = self._when(day)
                slot.versions.append(Version(value, self._statement(slot, value, prev, at), at))
            prev = value
        if spare and self.rng.random() < 0.4:
            self._proposal(slot, spare[-1])
        self._questions(key, slot)

    def _proposal(self, slot: Slot, other: str) -> None:
        when = self._when(self.rng.randrange(SPAN_DAYS))
        author = self.rng.choice(self.space.authors)
        fields = self._fields(slot.subject, slot.attribute, when) | {"other": other, "author": author}
        self._doc(self.rng.choice(PROPOSALS).format(**fields), author, when, "minutes")

    def _question(self, key: str, kind: str, text: str, gold: str, stale: list[str], as_of: datetime | None) -> None:
        qid = f"{self.space.name}-{kind}-{len(self.questions) + 1:03d}"
        self.questions.append(
            {
                "kind": "question",
                "id": qid,
                "space": self.space.name,
                "text": text,
                "as_of": _iso(as_of) if as_of else None,
                "gold": [gold],
                "stale": stale,
                "type": kind,
            }
        )
        self.question_slot[qid] = key

    def _questions(self, key: str, slot: Slot) -> None:
        attribute = slot.attribute
        setting = slot.setting_docs()
        latest = slot.versions[-1]
        fields = self._fields(slot.subject, attribute, latest.at)
        self._question(
            key,
            "current",
            self.rng.choice(ASK_CURRENT).format(**fields),
            latest.doc,
            [doc for _, doc in setting if doc != latest.doc],
            None,
        )
        # as_of: inside an earlier value's validity, at least two days clear of any value-setting document
        held = self.rng.randrange(len(slot.versions) - 1) if self.rng.random() < 0.85 else len(slot.versions) - 1
        version = slot.versions[held]
        low = version.at + timedelta(days=2)
        if held + 1 < len(slot.versions):
            following = slot.versions[held + 1]
            high = (following.wrong_at or following.at) - timedelta(days=2)
        else:
            high = min(low + timedelta(days=60), START + timedelta(days=SPAN_DAYS))
        as_of = (low + (high - low) * self.rng.random()).replace(second=0, microsecond=0)
        as_of_text = _date_long(as_of) if self.rng.random() < 0.6 else as_of.strftime("%Y-%m-%d")
        self._question(
            key,
            "as_of",
            self.rng.choice(ASK_AS_OF).format(**fields, as_of_text=as_of_text),
            version.doc,
            [doc for at, doc in setting if at < version.at],
            as_of,
        )
        asked = self.rng.choice(slot.versions)
        self._question(
            key,
            "change",
            self.rng.choice(ASK_CHANGE).format(**fields, value=asked.value),
            asked.doc,
            [],
            None,
        )

    def distractors(self, subject: str, count: int) -> None:
        """Documents about the subject that set no slot's value: other topics and questions asked."""
        attributes = [s.attribute for s in self.slots.values() if s.subject == subject]
        people = [p for a in self.space.attributes if a.person for p in a.values]
        for _ in range(count):
            when = self._when(self.rng.randrange(SPAN_DAYS))
            author = self.rng.choice(self.space.authors)
            if attributes and self.rng.random() < 0.35:
                fields = self._fields(subject, self.rng.choice(attributes), when)
                text = self.rng.choice(ASKED).format(**fields)
                source = "question"
            else:
                fields = {"subject": subject, "dow": self.rng.choice(DAYS), "author": author}
                fields["person"] = self.rng.choice(people)
                text = self.rng.choice(self.space.subject_chatter).format(**fields)
                source = "note"
            self._doc(text, author, when, source)

    def chatter(self, count: int) -> None:
        for _ in range(count):
            when = self._when(self.rng.randrange(SPAN_DAYS))
            text = self.rng.choice(self.space.chatter).format(dow=self.rng.choice(DAYS))
            self._doc(text, self.rng.choice(self.space.authors), when, "notice")

    def finish(self) -> list[dict[str, Any]]:
        """Documents in date order and numbered in that order (an id says nothing about its topic), then
        the questions with their references renamed to match; the slots are renamed too."""
        docs = sorted(self.docs, key=lambda d: d["event_at"])
        rename = {d["id"]: f"{self.space.name}-r{n:04d}" for n, d in enumerate(docs, 1)}
        for doc in docs:
            doc["id"] = rename[doc["id"]]
        for question in self.questions:
            question["gold"] = [rename[g] for g in question["gold"]]
            question["stale"] = [rename[s] for s in question["stale"]]
        for slot in self.slots.values():
            for v in slot.versions:
                v.doc = rename[v.doc]
                v.wrong_doc = rename[v.wrong_doc] if v.wrong_doc else None
        return docs + self.questions


def build(seed: int, distractors: int = 2, chatter: int = 5) -> DataSet:
    """The whole set for a seed: both spaces, their documents in date order, then their questions."""
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = []
    slots: dict[str, Slot] = {}
    question_slot: dict[str, str] = {}
    for space in SPACES:
        gen = SpaceGenerator(rng, space)
        for subject in space.subjects:
            for attribute in rng.sample(list(space.attributes), space.per_subject):
                gen.slot(subject, attribute)
        for subject in space.subjects:
            gen.distractors(subject, distractors)
        gen.chatter(chatter)
        lines += gen.finish()
        slots |= gen.slots
        question_slot |= gen.question_slot
    return DataSet(lines, slots, question_slot)


def generate(seed: int, distractors: int = 2, chatter: int = 5) -> list[dict[str, Any]]:
    return build(seed, distractors, chatter).lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--distractors", type=int, default=2, help="distractor documents per subject")
    parser.add_argument("--chatter", type=int, default=5, help="unrelated documents per space")
    parser.add_argument("--out", type=Path, default=None, help="JSONL file (default: stdout)")
    args = parser.parse_args(argv)
    if args.distractors < 0 or args.chatter < 0:
        parser.error("counts must be >= 0")
    lines = generate(args.seed, args.distractors, args.chatter)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
