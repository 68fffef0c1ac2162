// Procedures of each subgoal (DataLoader batch), valid at $as_of, best return first: key = Subgoal id.
UNWIND $ids AS id
MATCH (g:Subgoal {id: id})-[:HAS_PROCEDURE]->(p:Procedural)
WHERE g.space = $space AND p.space = $space
  AND p.valid_from <= $as_of AND p.valid_to > $as_of
  AND p.recorded_at <= $known_at AND p.expired_at > $known_at
  AND p.status IN $statuses
WITH id, p ORDER BY p.`return` DESC, p.id
RETURN id AS key, collect(p {.*, embedding: null})[..$limit] AS value
