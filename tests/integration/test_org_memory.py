"""Organisational memory on small hand-made fixtures, through the real write and read paths: a decision
and its reversal by another author, a correction recorded weeks after the event, two people contradicting
each other, and a decision spread over a meeting, an email and a chat thread. Recall must return the
complete evidence set, flag the contradiction, and pack everything with dates and authors."""

from __future__ import annotations

import pytest

from graphmem.config import Settings
from graphmem.memory_graph import MemoryGraph

pytestmark = pytest.mark.integration

ORIGINAL_DECISION = (
    "Architecture review: the billing service will store invoices in PostgreSQL. Rafael argued that "
    "PostgreSQL gives us transactional guarantees for invoice numbering, and the team agreed."
)
REVERSAL = (
    "Billing database decision reversed: invoices move from PostgreSQL to DynamoDB because invoice volume "
    "tripled and the PostgreSQL cluster could not keep up with peak load."
)
REVERSAL_EMAIL = (
    "Following today's billing review, we are moving invoice storage to DynamoDB. Invoice volume tripled and "
    "peak load overwhelmed the PostgreSQL cluster; migration starts next sprint under Grace's lead."
)
REVERSAL_CHAT = (
    "Heads up: billing invoices go to DynamoDB from next sprint, PostgreSQL stays for the ledger only. "
    "Grace owns the migration of the invoice tables."
)
UNRELATED_SAME_DAY = "The office coffee machine on floor three is broken again; facilities will replace it on Friday."


@pytest.fixture
def graph(store, minilm) -> MemoryGraph:
    return MemoryGraph(store, minilm, Settings())


def doc_id(space: str, name: str) -> str:
    """A document id of this test's own: ids are unique across spaces, and reruns share the database."""
    return f"{space}-{name}"


def _ingest(graph: MemoryGraph, space: str, docs: list[dict]) -> dict[str, str]:
    summary = graph.ingest_documents(space, docs, strict=True)
    return {d["id"]: stored for d, stored in zip(docs, summary.ids, strict=True)}


def _ingest_daily_notes(graph: MemoryGraph, space: str, notes: list[tuple[str, str, str]]) -> None:
    """(name, text, author) notes, one a day from 2024-04-01."""
    _ingest(
        graph,
        space,
        [
            {"id": doc_id(space, name), "text": text, "author": author, "event_at": f"2024-04-{day + 1:02d}"}
            for day, (name, text, author) in enumerate(notes)
        ],
    )


def documents_of_hits(graph: MemoryGraph, space: str, hits) -> list[str]:
    """The documents the hits rest on (a fact hit stands for its document)."""
    rows = graph.store.read("bench/unit_evidence", space=space, ids=[h.id for h in hits if h.kind != "episodic"])
    return [h.id for h in hits if h.kind == "episodic"] + [r["unit_id"] for r in rows]


def test_a_reversal_by_another_author_brings_its_thread_and_the_version_it_replaced(graph, space):
    _ingest(
        graph,
        space,
        [
            {
                "id": doc_id(space, "adr-billing-db"),
                "text": ORIGINAL_DECISION,
                "author": "Rafael",
                "event_at": "2024-02-01",
            },
            {"id": doc_id(space, "coffee"), "text": UNRELATED_SAME_DAY, "author": "Ines", "event_at": "2024-05-14"},
            {
                "id": doc_id(space, "billing-reversal"),
                "text": REVERSAL,
                "author": "Grace",
                "event_at": "2024-05-14",
                "supersedes": [doc_id(space, "adr-billing-db")],
                "source": "meeting_notes",
            },
            {"id": doc_id(space, "billing-email"), "text": REVERSAL_EMAIL, "author": "Grace", "event_at": "2024-05-14"},
            {"id": doc_id(space, "billing-chat"), "text": REVERSAL_CHAT, "author": "Tom", "event_at": "2024-05-15"},
        ],
    )
    result = graph.recall("Why was the billing database decision reversed?", space, k=10)
    related = {a.id: a for a in result.related}
    found = {item.id for item in result.evidence_order()} | set(documents_of_hits(graph, space, result.hits))
    # the whole thread of the reversal and the version it replaced, not the unrelated note of the same day
    thread_and_version = {
        doc_id(space, n) for n in ("billing-reversal", "billing-email", "billing-chat", "adr-billing-db")
    }
    assert thread_and_version <= found
    assert related[doc_id(space, "adr-billing-db")].relation in {"supersedes", "superseded_by"}
    assert doc_id(space, "coffee") not in related
    thread = [a for a in result.related if a.relation == "thread"]
    assert thread and all(a.score >= Settings().read_related_min_score for a in thread)
    # packed evidence: every item dated and authored, within the default 40,000 characters
    assert "(earlier version)" in result.evidence or "(later version)" in result.evidence
    assert "· Rafael]" in result.evidence and "· Grace]" in result.evidence
    assert result.evidence_chars == len(result.evidence) <= 40_000
    assert result.evidence_items >= 4 and not result.evidence_truncated
    assert result.evidence_tokens == graph.embedder.count_tokens(result.evidence)

    # the same question asked before the reversal sees neither the reversal nor its thread
    before = graph.recall("Why was the billing database decision reversed?", space, k=10, as_of="2024-03-01")
    seen = {h.id for h in before.hits} | {a.id for a in before.related}
    assert not seen & {doc_id(space, n) for n in ("billing-reversal", "billing-email", "billing-chat")}

    # turning expansion off leaves only what the legs ranked
    bare = graph.recall("Why was the billing database decision reversed?", space, k=10, related=False)
    assert bare.related == [] and bare.evidence_items <= len(bare.hits)


def test_documents_uploaded_without_dates_form_no_thread(graph, space):
    # An upload without dates stamps every document with the ingest time, so by date all of them would be
    # one thread, and each recall would compare its top documents with every document in the space. Only
    # documents whose writer dated them can be a thread; undated ones still come back by relevance.
    texts = {"reversal": REVERSAL, "email": REVERSAL_EMAIL, "chat": REVERSAL_CHAT, "coffee": UNRELATED_SAME_DAY}
    _ingest(graph, space, [{"id": doc_id(space, name), "text": text} for name, text in texts.items()])
    stored = graph.store.run_read_text(
        "MATCH (d:Episodic {space: $space, kind: 'document'}) RETURN collect(DISTINCT d.dated) AS dated", space=space
    )
    assert stored[0]["dated"] == [False]
    result = graph.recall("Why was the billing database decision reversed?", space, k=10)
    assert not [a for a in result.related if a.relation == "thread"]
    found = {item.id for item in result.evidence_order()} | set(documents_of_hits(graph, space, result.hits))
    assert {doc_id(space, n) for n in ("reversal", "email", "chat")} <= found


def test_a_correction_recorded_weeks_later_shows_both_versions_by_what_was_known_when(graph, space):
    _ingest(
        graph,
        space,
        [
            {
                "id": doc_id(space, "outage-report"),
                "text": "Incident report: the March 3 checkout outage lasted 2 hours and affected the EU region.",
                "author": "Carol",
                "event_at": "2024-03-03",
            }
        ],
    )
    graph.ingest_documents(
        space,
        [
            {
                "id": doc_id(space, "outage-correction"),
                "text": "Correction to the incident report: the March 3 checkout outage lasted 5 hours and "
                "affected the EU and US regions.",
                "author": "Dmitri",
                "event_at": "2024-03-24",
                "supersedes": [doc_id(space, "outage-report")],
            }
        ],
        strict=True,
    )
    now = graph.recall("How long did the March 3 checkout outage last?", space, k=10)
    hit_ids = {h.id for h in now.hits}
    related = {a.id: a.relation for a in now.related}
    assert doc_id(space, "outage-report") not in hit_ids  # superseded: not a current answer ...
    assert (
        related.get(doc_id(space, "outage-report")) == "supersedes"
    )  # ... but on record as what the correction replaced
    assert "5 hours" in now.evidence and "2 hours" in now.evidence
    assert now.evidence.index("5 hours") < now.evidence.index("2 hours")

    # as of March 10 the correction was not yet made: only the original report, and no later version
    then = graph.recall("How long did the March 3 checkout outage last?", space, k=10, as_of="2024-03-10")
    assert "2 hours" in then.evidence and "5 hours" not in then.evidence
    assert all(a.id != doc_id(space, "outage-correction") for a in then.related)


def test_two_people_contradicting_each_other_are_flagged_with_both_sides(graph, space):
    _ingest(
        graph,
        space,
        [
            {
                "id": doc_id(space, "dan-update"),
                "text": "Project Atlas update. The Atlas launch date is March 10.",
                "author": "Dan",
                "event_at": "2024-02-20",
            },
            {
                "id": doc_id(space, "erin-update"),
                "text": "Atlas status for the board. The Atlas launch date is March 24.",
                "author": "Erin",
                "event_at": "2024-02-21",
            },
            {
                "id": doc_id(space, "budget"),
                "text": "The Atlas budget is 40,000 euros for the first quarter.",
                "author": "Dan",
                "event_at": "2024-02-21",
            },
        ],
    )
    result = graph.recall("When does Atlas launch?", space, k=10)
    assert len(result.contradictions) == 1
    flag = result.contradictions[0]
    assert [s.author for s in flag.sides] == ["Dan", "Erin"]  # earlier side first
    assert "March 10" in flag.sides[0].text and "March 24" in flag.sides[1].text
    assert [s.event_at.date().isoformat() for s in flag.sides] == ["2024-02-20", "2024-02-21"]
    assert flag.subject and "different" in flag.reason
    # both sides stay in the hits: neither is silently picked
    texts = " ".join(h.text for h in result.hits)
    assert "March 10" in texts and "March 24" in texts

    # one author restating a value is not a contradiction between people
    solo = graph.recall("What is the Atlas budget?", space, k=3)
    assert all({s.author for s in c.sides} == {"Dan", "Erin"} for c in solo.contradictions)


def test_unlinked_versions_answer_a_current_question_with_the_newest_and_an_event_question_as_asked(graph, space):
    # Three announcements of one role over two years, by three authors, with no supersession between them;
    # the oldest repeats the question's words most, so relevance alone ranks it first.
    _ingest(
        graph,
        space,
        [
            {
                "id": doc_id(space, "payments-2022"),
                "text": "Head of the Payments team: Mateo Silva heads the Payments team from today.",
                "author": "Kenji",
                "event_at": "2022-03-13",
            },
            {
                "id": doc_id(space, "payments-2023"),
                "text": "Payments team: Noah Brooks becomes head of the Payments team.",
                "author": "Tomas",
                "event_at": "2023-04-07",
            },
            {
                "id": doc_id(space, "payments-2024"),
                "text": "Payments team: Samuel Otieno becomes head of the Payments team.",
                "author": "Priya",
                "event_at": "2024-05-12",
            },
        ],
    )
    current = graph.recall("Who heads the Payments team now?", space, k=5, related=False)
    texts = [h.text for h in current.hits]
    assert "Samuel Otieno" in texts[0]
    assert any("Mateo Silva" in t for t in texts[1:])  # the older version stays, below the newer one
    assert current.hits[0].value["newer_version"] > 0  # the lift is reported, not hidden
    then = graph.recall("Who heads the Payments team?", space, k=5, related=False, as_of="2023-01-01")
    assert "Mateo Silva" in then.hits[0].text and all(
        "Samuel" not in h.text and "Noah" not in h.text for h in then.hits
    )
    event = graph.recall("When did Mateo Silva take over the Payments team?", space, k=5, related=False)
    assert "Mateo Silva heads" in event.hits[0].text  # a question about an event keeps the question's order


def test_a_change_announced_in_other_words_answers_a_current_question_when_it_names_what_it_replaces(graph, space):
    # The role was announced in an email and changed months later in a one-line chat message worded quite
    # differently (too differently for the text-similarity rule); the chat names the person it replaces,
    # so it is the version that holds now. A later note about another team that replaced the same person
    # is not a version of this role.
    _ingest(
        graph,
        space,
        [
            {
                "id": doc_id(space, "security-email"),
                "text": "Subject: Security team leadership\n\nHi all,\n\nHana Sato will lead the Security team "
                "effective March 1, 2022. Please send Security escalations to Hana.\n\nThanks,\nElif",
                "author": "Elif",
                "event_at": "2022-03-01",
            },
            {
                "id": doc_id(space, "security-chat"),
                "text": "Ravi: quick update: starting today Lucas Moreau runs Security, replacing Hana Sato.",
                "author": "Ravi",
                "event_at": "2023-07-17",
            },
            {
                "id": doc_id(space, "routing-note"),
                "text": "Route Planning staffing: Ines Costa will run Route Planning, replacing Hana Sato.",
                "author": "Diego",
                "event_at": "2023-09-02",
            },
            {
                "id": doc_id(space, "security-demo"),
                "text": "The Security team demo went well today, Aisha walked us through the new dashboards.",
                "author": "Yusuf",
                "event_at": "2024-04-19",
            },
        ],
    )
    question = "Who is the current head of the Security team?"
    current = graph.recall(question, space, k=10, related=False)
    first = documents_of_hits(graph, space, current.hits[:1])
    assert first == [doc_id(space, "security-chat")], [h.text for h in current.hits]
    assert current.hits[0].value["newer_version"] > 0
    order = documents_of_hits(graph, space, current.hits)
    assert doc_id(space, "security-email") in order  # the replaced version stays, below
    # the same question as of 2022 answers with the email; an event question keeps the question's order
    then = graph.recall(question, space, k=10, related=False, as_of="2022-06-01")
    assert documents_of_hits(graph, space, then.hits[:1]) == [doc_id(space, "security-email")]
    # a question about the Route Planning role does not take the Security change for a version of it
    routing = graph.recall("Who runs Route Planning now?", space, k=10, related=False)
    assert documents_of_hits(graph, space, routing.hits[:1]) == [doc_id(space, "routing-note")]


def test_an_audit_question_that_states_its_date_is_answered_as_of_that_date(graph, space):
    # An auditor writes the bound into the question; nothing recorded as happening after it may answer.
    _ingest(
        graph,
        space,
        [
            {
                "id": doc_id(space, "travel-2023-01"),
                "text": "Travel policy: economy class for every flight, booked through the travel desk.",
                "author": "Lena",
                "event_at": "2023-01-10",
            },
            {
                "id": doc_id(space, "travel-2023-03"),
                "text": "Travel policy update: business class is allowed for flights over six hours.",
                "author": "Omar",
                "event_at": "2023-03-20",
            },
        ],
    )
    question = "Reconstruct the travel policy facts on record as of 2023-02-19."
    audit = graph.recall(question, space, k=10)
    assert audit.as_of_from_question and audit.as_of.date().isoformat() == "2023-02-19"
    dated = [h.event_at for h in audit.hits] + [a.event_at for a in audit.related]
    assert dated and all(d is not None and d.date().isoformat() <= "2023-02-19" for d in dated)
    assert any("economy class" in h.text for h in audit.hits)
    assert "business class" not in audit.evidence
    # the caller's own asOf wins over the question's words
    explicit = graph.recall(question, space, k=10, as_of="2023-04-01")
    assert not explicit.as_of_from_question and "business class" in explicit.evidence


def test_the_artefact_where_the_people_a_question_names_meet_comes_first(graph, space):
    # Each person appears in several notes of their own; only one note has both of them in it. Their tags tie
    # it to both: the tag-coverage leg ranks it first (each person counts once, however often a note names
    # them), and it is the first document recall returns.
    notes = [
        ("priya-1", "Priya Raman reviewed the quarterly hiring plan for the Lisbon office.", "Priya Raman"),
        ("priya-2", "Priya Raman approved the travel budget for the sales kickoff.", "Priya Raman"),
        ("priya-3", "Priya Raman wants the onboarding checklist rewritten before March.", "Priya Raman"),
        ("tomasz-1", "Tomasz Wolski migrated the build servers to the new datacenter.", "Tomasz Wolski"),
        ("tomasz-2", "Tomasz Wolski proposed weekly on-call rotations for the platform team.", "Tomasz Wolski"),
        ("both", "Sync notes: Priya Raman and Tomasz Wolski agreed the Lisbon launch slips two weeks.", "Lena"),
    ]
    _ingest_daily_notes(graph, space, notes)
    result = graph.recall("What was settled between Priya Raman and Tomasz Wolski?", space, k=10, related=False)
    both = doc_id(space, "both")
    episodic = [h for h in result.hits if h.kind == "episodic"]
    assert episodic and episodic[0].id == both
    assert episodic[0].signals["tagdocs"].rank == 1
    assert "tagdocs" in result.legs


def test_where_the_named_people_meet_outranks_notes_sharing_one_name_and_the_question_words(graph, space):
    # Each one-person note also says "resolved" and "statement", which the question asks about: to the
    # tag-coverage leg, one name and one question word cover as much as both names. Only the names count for
    # where people meet, so the one note where both of them speak is recall's first hit.
    notes = [
        ("priya-1", "Priya Raman's statement: the Lisbon hiring freeze is resolved.", "Priya Raman"),
        ("priya-2", "Priya Raman's statement on the travel budget: resolved, approved for the kickoff.", "Priya Raman"),
        ("priya-3", "Statement from Priya Raman: the onboarding checklist issue is resolved.", "Priya Raman"),
        ("tomasz-1", "Tomasz Wolski's statement: the build server migration is resolved.", "Tomasz Wolski"),
        ("tomasz-2", "Tomasz Wolski's statement: the on-call rotation dispute is resolved.", "Tomasz Wolski"),
        (
            "both",
            "Launch sync. Priya Raman: the Lisbon launch must ship in May. Tomasz Wolski: not before the "
            "load tests pass; June at the earliest. No agreement yet.",
            "Lena Berg",
        ),
    ]
    _ingest_daily_notes(graph, space, notes)
    question = "What were Priya Raman's and Tomasz Wolski's statements, and was their clash resolved?"
    result = graph.recall(question, space, k=10, related=False)
    assert result.hits[0].id == doc_id(space, "both")
    assert result.hits[0].value["covers_names"] == 1.0
    assert not any("covers_names" in h.value for h in result.hits[1:])
