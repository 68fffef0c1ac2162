// One page of a space's procedures valid at $as_of and known at $known_at, newest first (keyset on valid_from, id).
MATCH (n:Procedural)
WHERE n.space = $space
  AND n.valid_from <= $as_of AND n.valid_to > $open_after
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (n)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (n)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
  AND n.status IN $statuses
  AND ($subgoal IS NULL OR EXISTS {
    MATCH (g:Subgoal {id: $subgoal})-[:HAS_PROCEDURE]->(n) WHERE g.space = $space
  })
  AND ($after_id IS NULL OR n.valid_from < $after_key OR (n.valid_from = $after_key AND n.id < $after_id))
RETURN n {.*, embedding: null} AS node, n.valid_from AS sort_key
ORDER BY n.valid_from DESC, n.id DESC
LIMIT $limit
