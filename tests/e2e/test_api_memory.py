"""The memory roots and mutations over HTTP against the real Neo4j, with the real embedder (ranking matters):
ingest -> recall / tagVote / routeSubgoal / provenance -> supersede / history / changes -> recordOutcome ->
consolidate -> forget; every write refused without the right key."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tests.support.api_graph import ApiClient, ApiKeys, error_codes, make_client

INGEST_DOCS = """mutation($input: IngestDocumentsInput!) { ingestDocuments(input: $input) {
  ids created { label count } skipped failed userErrors { field code message } } }"""
INGEST_EPISODE = """mutation($input: IngestEpisodeInput!) { ingestEpisode(input: $input) {
  episodeId skipped created { label count } userErrors { field code message } } }"""
RECALL = """query($s: String!, $q: String!, $asOf: DateTime, $mode: RecallMode! = AUTO) {
  recall(space: $s, query: $q, asOf: $asOf, mode: $mode, first: 5, budgetTokens: 200) {
    mode evidence evidenceTokens
    hits { nodeId kind text score signals { leg rank score } value { name value }
           node { id ... on Episodic { kind author } ... on Semantic { tags { name } } } } } }"""

DOCS = [
    {"id": "office-v1", "text": "The Acme office is located in Paris, on Rue de Rivoli.", "author": "ana",
     "eventAt": "2024-01-10T09:00:00Z"},
    {"id": "office-v2", "text": "The Acme office moved to Lyon, near the Part-Dieu station.", "author": "bo",
     "eventAt": "2024-06-01T09:00:00Z", "supersedes": ["office-v1"]},
    {"id": "lunch", "text": "Team lunch is every Friday at Chez Marie.", "author": "ana",
     "eventAt": "2024-02-01T09:00:00Z"},
]  # fmt: skip

EPISODE = {
    "goal": "book a meeting room for the offsite",
    "outcome": 1.0,
    "startedAt": "2024-03-01T10:00:00Z",
    "steps": [
        {"action": "search rooms 'offsite Lyon'", "observation": "Found 3 rooms; Salle Rhône has a projector."},
        {"action": "book 'Salle Rhône' for May 3", "observation": "Booking confirmed for Salle Rhône on May 3."},
    ],
}


@pytest.fixture(scope="module")
def world(store, minilm, tmp_path_factory) -> dict:
    """One space with documents and an episode, written through the API; keys of every kind."""
    space, other = f"test-{uuid.uuid4().hex[:12]}", f"test-{uuid.uuid4().hex[:12]}"
    run = uuid.uuid4().hex[:8]  # document ids are unique across spaces: make this run's own
    documents = [
        {**d, "id": f"{run}-{d['id']}", **({"supersedes": [f"{run}-{x}" for x in d["supersedes"]]}
                                          if "supersedes" in d else {})}
        for d in DOCS
    ]  # fmt: skip
    keys = ApiKeys()
    k = {
        "writer": keys.add("read,write", space),
        "reader": keys.add("read", space),
        "admin": keys.add("admin", space),
        "other": keys.add("read,write", other),
    }
    api = make_client(store, minilm, keys, tmp_path_factory.mktemp("keys") / "keys.json")
    docs = api.gql(INGEST_DOCS, {"input": {"space": space, "documents": documents}}, key=k["writer"])
    episode = api.gql(INGEST_EPISODE, {"input": {"space": space, **EPISODE}}, key=k["writer"])
    # the other space holds a near-copy, so a leak would show up in rankings
    api.gql(INGEST_DOCS, {"input": {"space": other, "documents": [{**DOCS[1], "id": f"{run}-other-office"}]}},
            key=k["other"])  # fmt: skip
    return {"api": api, "space": space, "other": other, "keys": k, "docs": docs, "episode": episode,
            "documents": documents, "id": lambda name: f"{run}-{name}"}  # fmt: skip


def test_ingest_documents_reports_ids_and_counts(world: dict) -> None:
    payload = world["docs"]["data"]["ingestDocuments"]
    assert payload["userErrors"] == [] and payload["ids"] == [
        world["id"](n) for n in ("office-v1", "office-v2", "lunch")
    ]
    created = {c["label"]: c["count"] for c in payload["created"]}
    assert created["Episodic"] == 3 and created.get("Semantic", 0) >= 1
    again = world["api"].gql(INGEST_DOCS, {"input": {"space": world["space"], "documents": world["documents"][2:]}},
                             key=world["keys"]["writer"])["data"]["ingestDocuments"]  # fmt: skip
    assert again["skipped"] == 1 and again["ids"] == [world["id"]("lunch")]


def test_recall_ranks_the_current_version_and_as_of_the_old_one(world: dict) -> None:
    api, space, key = world["api"], world["space"], world["keys"]["reader"]
    # documents are versioned by supersession; facts derived from them are not (yet), so ask for evidence
    now = api.gql(RECALL, {"s": space, "q": "Where is the Acme office?", "mode": "EPISODIC"}, key=key)
    assert "errors" not in now, now
    result = now["data"]["recall"]
    top = result["hits"][0]
    assert "Lyon" in top["text"] and top["signals"] and top["node"]["id"]
    assert all("Paris" not in h["text"] for h in result["hits"])  # superseded: not current
    assert result["evidenceTokens"] > 0 and "Lyon" in result["evidence"]
    then = api.gql(RECALL, {"s": space, "q": "Where is the Acme office?", "asOf": "2024-03-01T00:00:00Z",
                            "mode": "EPISODIC"}, key=key)  # fmt: skip
    hits = then["data"]["recall"]["hits"]
    assert "Paris" in hits[0]["text"] and all("Lyon" not in h["text"] for h in hits)
    # a question that states its as-of date is answered as of it, and says the bound came from the question
    stated = api.gql(
        "query($s: String!, $q: String!) { recall(space: $s, query: $q, mode: EPISODIC) { asOf asOfFromQuestion "
        "hits { text } } }",
        {"s": space, "q": "Where was the Acme office as of March 1, 2024?"},
        key=key,
    )["data"]["recall"]
    assert stated["asOfFromQuestion"] is True and stated["asOf"].startswith("2024-03-01T23:59:59")
    assert "Paris" in stated["hits"][0]["text"] and all("moved to Lyon" not in h["text"] for h in stated["hits"])


RECALL_SOURCES = """query($s: String!, $q: String!, $asOf: DateTime, $v: SourceVariant! = HYBRID, $first: Int = 3) {
  recallSources(space: $s, query: $q, asOf: $asOf, variant: $v, first: $first) {
    nodeId kind score signals { leg rank } unitIds document { id author } episode { id goal } } }"""


def test_recall_sources_ranks_whole_documents_and_episodes_now_and_as_of(world: dict) -> None:
    api, space, key = world["api"], world["space"], world["keys"]["reader"]
    body = api.gql(RECALL_SOURCES, {"s": space, "q": "Where is the Acme office?"}, key=key)
    assert "errors" not in body, body
    sources = body["data"]["recallSources"]
    top = sources[0]
    assert top["nodeId"] == world["id"]("office-v2") and top["kind"] == "document"
    assert top["document"]["author"] == "bo" and top["episode"] is None and top["unitIds"]
    assert {s["leg"] for s in top["signals"]} == {"vector", "lexical"}
    assert world["id"]("office-v1") not in {s["nodeId"] for s in sources}  # superseded: not current
    then = api.gql(RECALL_SOURCES, {"s": space, "q": "Where is the Acme office?", "asOf": "2024-03-01T00:00:00Z"},
                   key=key)["data"]["recallSources"]  # fmt: skip
    assert then[0]["nodeId"] == world["id"]("office-v1")
    assert world["id"]("office-v2") not in {s["nodeId"] for s in then}
    lexical = api.gql(RECALL_SOURCES, {"s": space, "q": "Acme office", "v": "BM25"}, key=key)["data"]["recallSources"]
    assert lexical and all({s["leg"] for s in hit["signals"]} == {"lexical"} for hit in lexical)
    room = api.gql(RECALL_SOURCES, {"s": space, "q": "book a meeting room with a projector"}, key=key)
    episodes = [s for s in room["data"]["recallSources"] if s["kind"] == "episode"]
    assert episodes and episodes[0]["episode"]["goal"] == EPISODE["goal"] and episodes[0]["document"] is None
    bad = api.gql(RECALL_SOURCES, {"s": space, "q": "office", "first": 0}, key=key)
    assert "first" in bad["errors"][0]["message"]


RECALL_RELATED = """query($s: String!, $q: String!, $chars: Int) {
  recall(space: $s, query: $q, first: 5, budgetChars: $chars) {
    evidence evidenceItems evidenceChars evidenceTokens evidenceTruncated
    related { nodeId seedId seedDocument relation score text author eventAt node { id author } }
    contradictions { subject reason sides { nodeId text author eventAt } } } }"""


def test_recall_brings_the_replaced_version_and_packs_within_the_character_budget(world: dict) -> None:
    api, space, key = world["api"], world["space"], world["keys"]["reader"]
    body = api.gql(RECALL_RELATED, {"s": space, "q": "Where did the Acme office move to?"}, key=key)
    assert "errors" not in body, body
    result = body["data"]["recall"]
    versions = [r for r in result["related"] if r["relation"] == "supersedes"]
    assert versions and "Paris" in versions[0]["text"] and versions[0]["node"]["author"] == "ana"
    assert versions[0]["seedDocument"] == world["id"]("office-v2")
    assert "(earlier version)" in result["evidence"] and "· ana]" in result["evidence"]
    assert result["evidenceChars"] == len(result["evidence"]) and result["evidenceItems"] >= 2
    assert result["contradictions"] == []
    small = api.gql(RECALL_RELATED, {"s": space, "q": "Where did the Acme office move to?", "chars": 120}, key=key)
    packed = small["data"]["recall"]
    assert packed["evidenceChars"] <= 120 and packed["evidenceTruncated"] is True
    bad = api.gql(RECALL_RELATED, {"s": space, "q": "office", "chars": 5}, key=key)
    assert "budgetChars" in bad["errors"][0]["message"]


def test_tag_vote_shows_the_votes(world: dict) -> None:
    body = world["api"].gql(
        """query($s: String!) { tagVote(space: $s, query: "Acme office", tags: ["Acme"]) {
             queryTags matches { name match weight tag { name } }
             facts { text votes tagCount denseBonus votedBy { name match } node { status } } } }""",
        {"s": world["space"]},
        key=world["keys"]["reader"],
    )
    assert "errors" not in body, body
    result = body["data"]["tagVote"]
    assert result["queryTags"] == ["Acme"]
    assert any(m["match"] == "exact" and m["tag"]["name"].lower() == "acme" for m in result["matches"])
    fact = result["facts"][0]
    # the Paris version's facts were retired when its document was superseded: only Lyon's vote now
    assert "lyon" in fact["text"].lower() and fact["votes"] > 0 and fact["node"]["status"] == "ACTIVE"
    assert all("paris" not in f["text"].lower() for f in result["facts"])
    # votes = each voting tag's weight / ln(1 + its fact count), plus the dense bonus (2 when the fact was
    # among the dense leg's hits, else 0), reported on its own
    assert fact["votedBy"] and fact["denseBonus"] in (0.0, 2.0)
    assert fact["votes"] > fact["denseBonus"]


def test_route_subgoal_and_record_outcome(world: dict) -> None:
    api, space = world["api"], world["space"]
    assert world["episode"]["data"]["ingestEpisode"]["userErrors"] == []
    body = api.gql(
        """query($s: String!) { routeSubgoal(space: $s, subgoal: "book a room", first: 3) {
             nodeId kind text value { name value } node { ... on Procedural { return uses subgoals { text } } } } }""",
        {"s": space},
        key=world["keys"]["reader"],
    )
    assert "errors" not in body, body
    hit = body["data"]["routeSubgoal"][0]
    assert hit["kind"] == "procedural" and hit["node"]["subgoals"]
    uses = hit["node"]["uses"]
    outcome = api.gql(
        """mutation($input: RecordOutcomeInput!) { recordOutcome(input: $input) {
             procedureId uses return userErrors { field code } procedure { uses } } }""",
        {"input": {"space": space, "procedureId": hit["nodeId"], "reward": 0.0}},
        key=world["keys"]["writer"],
    )["data"]["recordOutcome"]
    assert outcome["userErrors"] == [] and outcome["uses"] == uses + 1 == outcome["procedure"]["uses"]
    missing = api.gql(
        "mutation($input: RecordOutcomeInput!) { recordOutcome(input: $input) { userErrors { field code } } }",
        {"input": {"space": space, "procedureId": "no-such-procedure", "reward": 1.0}},
        key=world["keys"]["writer"],
    )["data"]["recordOutcome"]
    assert missing["userErrors"] == [{"field": "input.procedureId", "code": "NOT_FOUND"}]


def test_provenance_history_changes_and_supersede(world: dict) -> None:
    api, space, reader = world["api"], world["space"], world["keys"]["reader"]
    prov = api.gql(
        """query($s: String!, $id: String!, $asOf: DateTime) { provenance(space: $s, id: $id, asOf: $asOf) {
             nodeId text status versionAt supersededBy lineage { type sourceId targetId at }
             evidence { nodeId text author } } }""",
        {"s": space, "id": world["id"]("office-v1"), "asOf": "2024-07-01T00:00:00Z"},
        key=reader,
    )
    assert "errors" not in prov, prov
    p = prov["data"]["provenance"]
    assert p["supersededBy"] == [world["id"]("office-v2")] and p["versionAt"] == world["id"]("office-v2")
    assert p["lineage"][0]["type"] == "SUPERSEDES"
    before = api.gql(
        "query($s: String!, $id: String!) { provenance(space: $s, id: $id, asOf: \"2024-03-01T00:00:00Z\") "
        "{ supersededBy versionAt } }", {"s": space, "id": world["id"]("office-v1")}, key=reader,
    )["data"]["provenance"]  # fmt: skip
    assert before == {"supersededBy": [], "versionAt": world["id"]("office-v1")}
    lunch, lunch2 = world["id"]("lunch"), world["id"]("lunch-v2")
    # supersede the lunch note by a newer one, then read the history and the changes window
    api.gql(INGEST_DOCS, {"input": {"space": space, "documents": [
        {"id": lunch2, "text": "Team lunch moved to Thursdays at Le Bouchon.", "eventAt": "2024-09-01T09:00:00Z"}
    ]}}, key=world["keys"]["writer"])  # fmt: skip
    sup = api.gql(
        """mutation($input: SupersedeInput!) { supersede(input: $input) {
             created newId oldId userErrors { field code message } } }""",
        {"input": {"space": space, "newId": lunch2, "oldId": lunch, "at": "2024-09-01T09:00:00Z",
                   "reason": "new day", "by": "ana"}},
        key=world["keys"]["writer"],
    )["data"]["supersede"]  # fmt: skip
    assert sup == {"created": True, "newId": lunch2, "oldId": lunch, "userErrors": []}
    history = api.gql(
        "query($s: String!, $id: String!) { history(space: $s, id: $id) { versions { nodeId status } "
        "links { newerId olderId reason by } current { nodeId } } }", {"s": space, "id": lunch}, key=reader,
    )["data"]["history"]  # fmt: skip
    assert [v["nodeId"] for v in history["versions"]] == [lunch, lunch2]
    assert history["links"] == [{"newerId": lunch2, "olderId": lunch, "reason": "new day", "by": "ana"}]
    assert history["current"] == [{"nodeId": lunch2}]
    changes = api.gql(
        "query($s: String!) { changes(space: $s, since: \"2024-08-01T00:00:00Z\", until: \"2024-10-01T00:00:00Z\")"
        " { change nodeId otherId by } }", {"s": space}, key=reader,
    )["data"]["changes"]  # fmt: skip
    assert {"change": "superseded", "nodeId": lunch2, "otherId": lunch, "by": "ana"} in changes
    cycle = api.gql(
        "mutation($input: SupersedeInput!) { supersede(input: $input) { created userErrors { field code } } }",
        {"input": {"space": space, "newId": lunch, "oldId": lunch2, "at": "2024-10-01T00:00:00Z"}},
        key=world["keys"]["writer"],
    )["data"]["supersede"]
    assert cycle["created"] is False and cycle["userErrors"][0]["code"] in {"CONFLICT", "INVALID_INPUT"}


def test_consolidate_dry_run_reports(world: dict) -> None:
    body = world["api"].gql(
        """mutation($input: ConsolidateInput!) { consolidate(input: $input) {
             report { pairsSeen dryRun classifier } userErrors { code } } }""",
        {"input": {"space": world["space"], "dryRun": True}},
        key=world["keys"]["writer"],
    )
    assert body["data"]["consolidate"]["report"]["dryRun"] is True
    assert body["data"]["consolidate"]["userErrors"] == []


def test_writes_need_a_write_key_and_forget_an_admin_key(world: dict) -> None:
    api, space, k = world["api"], world["space"], world["keys"]
    docs = {"input": {"space": space, "documents": [{"text": "Sneaky write"}]}}
    assert error_codes(api.gql(INGEST_DOCS, docs)) == ["UNAUTHENTICATED"]
    assert error_codes(api.gql(INGEST_DOCS, docs, key=k["reader"])) == ["FORBIDDEN"]
    assert error_codes(api.gql(INGEST_DOCS, docs, key=k["other"])) == ["FORBIDDEN"]  # wrong space
    episode_id = world["episode"]["data"]["ingestEpisode"]["episodeId"]
    forget = """mutation($input: ForgetInput!) { forget(input: $input) {
      auditId removed { label count } userErrors { field code } } }"""
    variables = {"input": {"space": space, "episodeId": episode_id}}
    assert error_codes(api.gql(forget, variables, key=k["writer"])) == ["FORBIDDEN"]
    done = api.gql(forget, variables, key=k["admin"])["data"]["forget"]
    assert done["auditId"] and {"label": "Episode", "count": 1} in done["removed"]
    again = api.gql(forget, variables, key=k["admin"])["data"]["forget"]
    assert again["userErrors"] == [{"field": "input.episodeId", "code": "NOT_FOUND"}]


def test_bad_inputs_are_named_not_500(world: dict) -> None:
    api, space, writer = world["api"], world["space"], world["keys"]["writer"]

    def doc_errors(documents: list[dict]) -> list[dict]:
        body = api.gql(INGEST_DOCS, {"input": {"space": space, "documents": documents}}, key=writer)
        return body["data"]["ingestDocuments"]["userErrors"]

    assert doc_errors([{"text": "   "}])[0]["field"] == "input.documents[0].text"
    oversize = doc_errors([{"text": "x" * 200_001}])[0]
    assert oversize["field"] == "input.documents[0].text" and "limit is 200000" in oversize["message"]
    assert doc_errors([])[0]["field"] == "input.documents"
    assert doc_errors([{"text": "ok"}] * 501)[0]["message"].endswith("the limit is 500")
    bad_date = api.gql(INGEST_DOCS, {"input": {"space": space, "documents": [{"text": "a", "eventAt": "soon"}]}},
                       key=writer)  # fmt: skip
    assert bad_date["data"] is None and "eventAt" in bad_date["errors"][0]["message"]
    unknown = doc_errors([{"text": "A new memo.", "supersedes": ["no-such-doc"]}])[0]
    assert unknown["field"] == "input.documents[0].supersedes" or unknown["field"].startswith("input.documents[0]")
    empty_step = api.gql(INGEST_EPISODE, {"input": {"space": space, "goal": "x", "steps": []}}, key=writer)
    assert empty_step["data"]["ingestEpisode"]["userErrors"][0]["field"] == "input.steps"
    empty_query = api.gql(RECALL, {"s": space, "q": ""}, key=world["keys"]["reader"])
    assert empty_query["errors"][0]["extensions"]["field"] == "query"


def test_a_key_for_one_space_never_sees_another(world: dict) -> None:
    api, space, other_key = world["api"], world["space"], world["keys"]["other"]
    assert error_codes(api.gql(RECALL, {"s": space, "q": "Where is the Acme office?"}, key=other_key)) == ["FORBIDDEN"]
    own = api.gql(RECALL, {"s": world["other"], "q": "Where is the Acme office?"}, key=other_key)
    assert {h["nodeId"] for h in own["data"]["recall"]["hits"]} <= {
        h for h in _ids_in_space(api, world["other"], other_key)
    }
    prov = api.gql("query($s: String!, $id: String!) { provenance(space: $s, id: $id) { nodeId } }",
                   {"s": world["other"], "id": world["id"]("office-v2")}, key=other_key)  # fmt: skip
    assert error_codes(prov) == ["NOT_FOUND"]
    for query in (
        'tagVote(space: $s, query: "office") { queryTags }',
        'recallSources(space: $s, query: "office") { nodeId }',
        'routeSubgoal(space: $s, subgoal: "book a room") { nodeId }',
        'history(space: $s, id: "office-v1") { nodeId }',
        'changes(space: $s, since: "2024-01-01T00:00:00Z", until: "2025-01-01T00:00:00Z") { nodeId }',
    ):
        assert error_codes(api.gql(f"query($s: String!) {{ {query} }}", {"s": space}, key=other_key)) == [
            "FORBIDDEN"], query  # fmt: skip


def _ids_in_space(api: ApiClient, space: str, key: str) -> set[str]:
    ids: set[str] = set()
    for root in ("semantics", "episodics", "procedures"):
        body = api.gql(f"query($s: String!) {{ {root}(space: $s, first: 100) {{ edges {{ node {{ nodeId }} }} }} }}",
                       {"s": space}, key=key)  # fmt: skip
        ids |= {e["node"]["nodeId"] for e in body["data"][root]["edges"]}
    return ids


def test_mutations_against_a_missing_key_file_still_refuse(store, minilm, tmp_path: Path) -> None:
    api = make_client(store, minilm, ApiKeys(), tmp_path / "absent" / "keys.json")
    body = api.gql(INGEST_DOCS, {"input": {"space": "x", "documents": [{"text": "t"}]}}, key="gmk_whatever")
    assert error_codes(body) == ["UNAUTHENTICATED"]
