// Procedures of each subgoal (DataLoader batch), valid at $as_of, best return first: key = Subgoal id.
UNWIND $ids AS id
MATCH (g:Subgoal {id: id})-[:HAS_PROCEDURE]->(p:Procedural)
WHERE g.space = $space AND p.space = $space
  AND p.valid_from <= $as_of AND p.valid_to > $open_after
  AND p.recorded_at <= $known_at AND p.expired_at > $known_at
  AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(p) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (p)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (p)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
  AND p.status IN $statuses
WITH id, p ORDER BY p.`return` DESC, p.id
RETURN id AS key, collect(p {.*, embedding: null})[..$limit] AS value
