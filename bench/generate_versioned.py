#!/usr/bin/env python3
"""Development data for `graphmem bench quality --dataset versioned`: a fictional organisation whose
attributes change over time, written up by many authors in Slack messages, emails, meeting notes and
decision records, with distractor documents about the same teams and systems.

Questions come in three types (INTERFACES.md): `current` (gold: the document that set the value now in
force; stale: the documents that set earlier values), `as_of` (gold: the document whose value held on the
`as_of` date; stale: the ones it replaced; anything dated after `as_of` is a future leak) and `change`
(gold: the document that introduced a given value). Deterministic for a seed.

    python bench/generate_versioned.py --seed 7 --out /tmp/versioned_dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PEOPLE = (
    "Amara Okafor",
    "Lena Fischer",
    "Tomas Novak",
    "Priya Raman",
    "Mateo Silva",
    "Hana Sato",
    "Jonas Berg",
    "Aisha Khan",
    "Diego Ruiz",
    "Maya Cohen",
    "Ravi Menon",
    "Elif Yilmaz",
    "Noah Brooks",
    "Sofia Marino",
    "Kenji Ito",
    "Zara Ahmed",
    "Lucas Moreau",
    "Ines Costa",
    "Oskar Lind",
    "Nadia Petrova",
    "Samuel Otieno",
    "Clara Weiss",
    "Ibrahim Diallo",
    "Freya Olsen",
    "Marco Bianchi",
    "Yusuf Demir",
)
ORG_NAMES = ("Kestrel Freight", "Bluefin Logistics", "Harbourline Cargo")


@dataclass(frozen=True)
class AttributeKind:
    """One kind of changing attribute, with how people announce it, ask about it and talk around it."""

    name: str
    entities: tuple[str, ...]
    values: tuple[str, ...]  # empty: values are people
    announce: tuple[str, ...]
    ask_current: tuple[str, ...]
    ask_as_of: tuple[str, ...]
    ask_change: tuple[str, ...]
    distract: tuple[str, ...]


KINDS = (
    AttributeKind(
        name="lead",
        entities=(
            "Payments",
            "Route Planning",
            "Warehouse Operations",
            "Customer Support",
            "Data Platform",
            "Security",
            "Billing",
            "Mobile Apps",
        ),
        values=(),
        announce=(
            "{author}: quick update for everyone: starting today {value} takes over as head of the {entity} "
            "team{replacing}. Please send {entity} escalations to {value_first} from now on.",
            "Subject: {entity} team leadership\n\nHi all,\n\n{value} will lead the {entity} team effective "
            "{date}{replacing}. Thanks for making the handover smooth.\n\nBest,\n{author}",
            "Staff meeting notes ({date}). Attendees: {author}, {other}, {value}.\n1. {entity} "
            "staffing: agreed "
            "that {value} becomes the {entity} team lead{replacing}.\n2. Hiring plan for next "
            "quarter reviewed.",
        ),
        ask_current=("Who is the current head of the {entity} team?", "Who runs the {entity} team now?"),
        ask_as_of=("Who was leading the {entity} team on {as_of_text}?",),
        ask_change=("When did {value} take over the {entity} team, and who announced it?",),
        distract=(
            "{author}: the {entity} team demo went well today, {other} walked us through the new dashboards.",
            "Subject: {entity} offsite\n\nThe {entity} offsite is moving to the second week of the month. "
            "{other} is collecting dietary requirements.\n\n{author}",
            "Retro notes ({date}), {entity} team: deploys were slow this sprint; {other} will look at the CI cache.",
        ),
    ),
    AttributeKind(
        name="datastore",
        entities=("Orders service", "Tracking API", "Invoice engine", "Dispatch planner", "Fleet telemetry"),
        values=("PostgreSQL", "MySQL", "DynamoDB", "CockroachDB", "MongoDB", "Cassandra", "ClickHouse"),
        announce=(
            "ADR: primary datastore for the {entity}\nStatus: accepted ({date})\nDecision: the "
            "{entity} stores "
            "its records in {value}{replacing}.\nContext: growth in write volume and on-call "
            "pain.\nAuthor: {author}",
            "{author}: heads up, the {entity} migration is done; {value} is now its primary database{replacing}.",
            "Architecture review ({date}). Present: {author}, {other}.\nOutcome: move the {entity} to {value}"
            "{replacing}. Rollout owner: {other}.",
        ),
        ask_current=(
            "Which database does the {entity} use today?",
            "What is the {entity}'s primary datastore now?",
        ),
        ask_as_of=("What database was the {entity} running on as of {as_of_text}?",),
        ask_change=("When was the decision made to put the {entity} on {value}?",),
        distract=(
            "{author}: latency alarms on the {entity} again this morning, {other} is on it.",
            "Incident review ({date}): the {entity} returned errors for 12 minutes after a bad config push. "
            "Action items owned by {other}.",
            "Subject: {entity} load test\n\nWe will load test the {entity} on Thursday night. Expect noisy "
            "dashboards.\n\n{author}",
        ),
    ),
    AttributeKind(
        name="vendor",
        entities=("cloud hosting", "transactional email", "payroll", "fleet telematics", "customer chat"),
        values=(
            "Altostrat Cloud",
            "Nimbus Hosting",
            "Parcel Mail",
            "Beacon Payroll",
            "Vantage Telematics",
            "Chatterly",
            "Ironbark Systems",
            "Lumen Works",
        ),
        announce=(
            "Subject: new {entity} vendor\n\nTeam,\n\nWe signed with {value} for "
            "{entity}{replacing}. The contract "
            "starts {date}.\n\nRegards,\n{author}",
            "{author}: procurement closed the {entity} deal, we are going with {value}{replacing}.",
            "Vendor committee minutes ({date}). Members: {author}, {other}.\nResolved: {value} is "
            "the {entity} "
            "provider{replacing}.",
        ),
        ask_current=("Who is our {entity} vendor right now?", "Which company provides our {entity} today?"),
        ask_as_of=("Which vendor handled {entity} for us on {as_of_text}?",),
        ask_change=("When did we sign {value} for {entity}?",),
        distract=(
            "{author}: the {entity} invoice for last month looks higher than usual, {other} please double-check.",
            "Subject: {entity} outage\n\nOur {entity} provider had a two-hour outage overnight; no "
            "data lost.\n\n"
            "{author}",
        ),
    ),
    AttributeKind(
        name="policy",
        entities=(
            "sev-1 incident response target",
            "hotel expense limit per night",
            "required code review approvals",
            "laptop refresh cycle",
        ),
        values=(
            "15 minutes",
            "30 minutes",
            "1 hour",
            "120 euros",
            "150 euros",
            "180 euros",
            "one approval",
            "two approvals",
            "three years",
            "four years",
        ),
        announce=(
            "Policy update ({date}): the {entity} is now {value}{replacing}. Questions to {author}.",
            "{author}: reminder that the {entity} changed, it is {value} as of today{replacing}.",
            "Subject: {entity}\n\nHello everyone,\n\nEffective {date} the {entity} will be "
            "{value}{replacing}.\n\n"
            "Thanks,\n{author}",
        ),
        ask_current=("What is the {entity} now?", "What is our current {entity}?"),
        ask_as_of=("What was the {entity} on {as_of_text}?",),
        ask_change=("When did the {entity} become {value}?",),
        distract=(
            "{author}: does anyone know who owns the {entity} wording in the handbook? {other} asked.",
            "All-hands notes ({date}): {other} presented the quarterly numbers; a question about the "
            "{entity} "
            "was deferred.",
        ),
    ),
)

CHATTER = (
    "{author}: lunch order closes at 11:30, the pizza place again.",
    "Subject: parking garage\n\nThe parking garage is closed on Saturday for cleaning.\n\n{author}",
    "{author}: congratulations to {other} on ten years with the company!",
    "Social committee notes ({date}): summer party venue shortlisted; {other} will book the boat.",
    "{author}: the wifi on the third floor is flaky again, IT is aware.",
    "Subject: quarterly planning\n\nPlanning docs are due by Friday. Keep them to two pages.\n\n{author}",
)


def _fmt_date(when: datetime) -> str:
    return when.strftime("%B %-d, %Y")


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class OrgGenerator:
    def __init__(self, rng: random.Random, space: str, org: str, start: datetime, days: int) -> None:
        self.rng = rng
        self.space = space
        self.org = org
        self.start = start
        self.days = days
        self.docs: list[dict[str, Any]] = []
        self.questions: list[dict[str, Any]] = []

    def _doc(self, text: str, author: str, when: datetime, source: str) -> str:
        seen = {d["text"] for d in self.docs}
        repeat = 1
        while text in seen:  # an exact repeat would be stored once, at its first date: keep texts distinct
            text = f"{text.split(chr(10) + '(sent')[0]}\n(sent {_fmt_date(when)}, #{repeat})"
            repeat += 1
        doc_id = f"draft-{len(self.docs)}"
        self.docs.append(
            {
                "kind": "document",
                "id": doc_id,
                "space": self.space,
                "text": text,
                "author": author,
                "event_at": _iso(when),
                "source": source,
            }
        )
        return doc_id

    def _question(self, text: str, kind: str, gold: list[str], stale: list[str], as_of: datetime | None) -> None:
        self.questions.append(
            {
                "kind": "question",
                "id": f"{self.space}-q-{len(self.questions) + 1:04d}",
                "space": self.space,
                "text": text,
                "as_of": _iso(as_of) if as_of else None,
                "gold": gold,
                "stale": stale,
                "type": kind,
            }
        )

    def _when(self, low: int, high: int) -> datetime:
        day = self.rng.randint(low, high)
        return self.start + timedelta(days=day, hours=self.rng.randint(8, 18), minutes=self.rng.randint(0, 59))

    def attribute(self, kind: AttributeKind, entity: str, versions: int, distractors: int) -> None:
        pool = list(kind.values) if kind.values else list(PEOPLE)
        values = self.rng.sample(pool, versions)
        cut = sorted(self.rng.sample(range(20, self.days - 20), versions))
        dates = [self._when(c, c) for c in cut]
        version_docs: list[str] = []
        for i, (value, when) in enumerate(zip(values, dates, strict=True)):
            author, other = self.rng.sample([p for p in PEOPLE if p != value], 2)
            replacing = f", replacing {values[i - 1]}" if i and self.rng.random() < 0.6 else ""
            template = self.rng.choice(kind.announce)
            text = template.format(
                author=author,
                other=other,
                value=value,
                value_first=value.split()[0],
                entity=entity,
                date=_fmt_date(when),
                replacing=replacing,
            )
            source = "email" if text.startswith("Subject") else "slack" if text.startswith(author) else "notes"
            version_docs.append(self._doc(text, author, when, source))
        for _ in range(distractors):
            author, other = self.rng.sample(PEOPLE, 2)
            when = self._when(0, self.days)
            text = self.rng.choice(kind.distract).format(
                author=author, other=other, entity=entity, date=_fmt_date(when)
            )
            self._doc(text, author, when, "slack")
        # current: the last version is gold, every earlier one is stale
        self._question(
            self.rng.choice(kind.ask_current).format(entity=entity),
            "current",
            [version_docs[-1]],
            version_docs[:-1],
            None,
        )
        # as_of: a date inside an earlier version's validity (the last one when there is only one)
        held = self.rng.randrange(max(1, versions - 1))
        low = dates[held] + timedelta(days=2)
        high = (dates[held + 1] - timedelta(days=2)) if held + 1 < versions else low + timedelta(days=30)
        as_of = low + (high - low) * self.rng.random() if high > low else low
        self._question(
            self.rng.choice(kind.ask_as_of).format(entity=entity, as_of_text=_fmt_date(as_of)),
            "as_of",
            [version_docs[held]],
            version_docs[:held],
            as_of,
        )
        # change: the document that introduced one of the values
        changed = self.rng.randrange(versions)
        self._question(
            self.rng.choice(kind.ask_change).format(entity=entity, value=values[changed]),
            "change",
            [version_docs[changed]],
            [],
            None,
        )

    def finish(self) -> list[dict[str, Any]]:
        """Documents in date order, numbered in that order (an id says nothing about its topic), then
        the questions with their references renamed to match."""
        docs = sorted(self.docs, key=lambda d: d["event_at"])
        rename = {d["id"]: f"{self.space}-doc-{n:04d}" for n, d in enumerate(docs, 1)}
        for doc in docs:
            doc["id"] = rename[doc["id"]]
        for question in self.questions:
            question["gold"] = [rename[g] for g in question["gold"]]
            question["stale"] = [rename[g] for g in question["stale"]]
        return docs + self.questions

    def chatter(self, count: int) -> None:
        for _ in range(count):
            author, other = self.rng.sample(PEOPLE, 2)
            when = self._when(0, self.days)
            self._doc(
                self.rng.choice(CHATTER).format(author=author, other=other, date=_fmt_date(when)),
                author,
                when,
                "slack",
            )


def generate(seed: int, orgs: int, max_versions: int, distractors: int, chatter: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = []
    for n in range(orgs):
        org = ORG_NAMES[n % len(ORG_NAMES)]
        gen = OrgGenerator(rng, f"org{n + 1}", org, datetime(2022, 1, 3, tzinfo=UTC), 900)
        for kind in KINDS:
            for entity in kind.entities:
                gen.attribute(kind, entity, rng.randint(2, max_versions), distractors)
        gen.chatter(chatter)
        lines += gen.finish()
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--orgs", type=int, default=1, help="organisations, one space each")
    parser.add_argument("--max-versions", type=int, default=4, help="versions per attribute: 2..N")
    parser.add_argument("--distractors", type=int, default=2, help="distractor documents per attribute")
    parser.add_argument("--chatter", type=int, default=40, help="unrelated documents per organisation")
    parser.add_argument("--out", type=Path, default=None, help="JSONL file (default: stdout)")
    args = parser.parse_args(argv)
    if args.max_versions < 2 or args.orgs < 1 or args.distractors < 0 or args.chatter < 0:
        parser.error("--max-versions must be >= 2, --orgs >= 1, counts >= 0")
    lines = generate(args.seed, args.orgs, args.max_versions, args.distractors, args.chatter)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
