// Subgoals each procedure is routed by (DataLoader batch): key = Procedural id.
UNWIND $ids AS id
MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(p:Procedural {id: id})
WHERE p.space = $space AND g.space = $space
  AND g.recorded_at <= $known_at AND g.expired_at > $known_at
WITH id, g ORDER BY g.text
RETURN id AS key, collect(g {.*, embedding: null}) AS value
