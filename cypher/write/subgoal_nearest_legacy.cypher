// Pre-2026 servers: the $per_key most similar Subgoals in $space per row via db.index.vector.queryNodes
// with over-fetch, nearest first.
UNWIND $rows AS row
CALL {
  WITH row
  CALL db.index.vector.queryNodes('subgoal_embedding', $fetch, row.vector) YIELD node, score
  WITH node, score WHERE node.space = $space
  RETURN node AS s, score ORDER BY score DESC LIMIT $per_key
}
WITH row, s, score
WHERE score >= $min_score
RETURN row.key AS key, s.id AS id, s.text AS name, score
