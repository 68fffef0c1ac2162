"""Every named query reaches a space's nodes through an index, never by scanning a label: a label scan makes one
tenant's reads and writes cost more the more the other tenants hold (and lets it time how much they hold)."""

from __future__ import annotations

from graphmem.db.queries import CYPHER_DIR, load_query

# ApiKey nodes live outside every space: listing them is an administrator's read of all keys.
SPACELESS = {"keys/list"}
SCANS = {"NodeByLabelScan", "AllNodesScan", "UnionNodeByLabelsScan", "IntersectionNodeByLabelsScan"}


def _operators(plan) -> set[str]:
    found = {plan["operatorType"].split("@")[0]}
    for child in plan.get("children", []):
        found |= _operators(child)
    return found


def named_queries() -> list[str]:
    names = [str(p.relative_to(CYPHER_DIR).with_suffix("")) for p in CYPHER_DIR.rglob("*.cypher")]
    return sorted(n for n in names if not n.startswith("schema/") and n not in SPACELESS)


# Other tenants' data, so the planner weighs scans against seeks as it does on a loaded database (on an empty one
# every plan costs nothing and any is as good as any other).
BALLAST = """
UNWIND range(1, 2000) AS i
CREATE (e:Episodic {space: $space, id: 'e' + i, status: 'active', author: 'a' + (i % 7), content_hash: 'h' + i,
                    kind: 'document', event_at: datetime(), valid_from: datetime(), recorded_at: datetime()})
CREATE (f:Semantic {space: $space, id: 'f' + i, status: 'active', author: 'a' + (i % 7), content_hash: 'g' + i,
                    valid_from: datetime(), recorded_at: datetime()})-[:EVIDENCED_BY]->(e)
CREATE (t:Tag {space: $space, id: 't' + i, name: 'tag ' + i, norm_name: 'tag ' + i})-[:TAGS]->(f)
CREATE (p:Procedural {space: $space, id: 'p' + i, status: 'active'})-[:EVIDENCED_BY]->(e)
CREATE (g:Subgoal {space: $space, id: 'g' + i})-[:HAS_PROCEDURE]->(p)
CREATE (e)-[:PART_OF]->(:Episode {space: $space, id: 'ep' + i, session_id: 's' + i})
CREATE (:AuditRecord {space: $space, id: 'r' + i, action: 'forget', state: 'completed'})
WITH f, i WHERE i > 1
MATCH (older:Semantic {space: $space, id: 'f' + (i - 1)})
CREATE (f)-[:SUPERSEDES {at: datetime(), recorded_at: datetime()}]->(older)
CREATE (f)-[:MERGED_FROM {at: datetime(), recorded_at: datetime()}]->(older)
"""


def test_no_named_query_scans_every_spaces_nodes(store):
    names = named_queries()
    assert len(names) > 100 and "write/forget_open" in names and "api/list_tag" in names
    store.run_write_text(BALLAST, space="plan-ballast")
    try:
        scanning = _scanning(store, names)
    finally:
        while store.run_write_text(
            "MATCH (n {space: 'plan-ballast'}) WITH n LIMIT 5000 DETACH DELETE n RETURN count(*) AS deleted"
        )[0]["deleted"]:
            pass
    assert scanning == {}


def _scanning(store, names: list[str]) -> dict[str, list[str]]:
    store.run_write_text("CALL db.clearQueryCaches()")  # plans made on an emptier database are planned again
    scanning = {}
    # planned without parameters (EXPLAIN only): a plan does not depend on the values
    with store.driver.session(database=store.database, notifications_min_severity="OFF") as session:
        for name in names:
            plan = session.run("EXPLAIN " + load_query(name)).consume().plan
            if found := _operators(plan) & SCANS:
                scanning[name] = sorted(found)
    return scanning
