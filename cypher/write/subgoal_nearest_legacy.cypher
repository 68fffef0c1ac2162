// Pre-2026 servers: the most similar Subgoal in $space per row via db.index.vector.queryNodes with over-fetch.
UNWIND $rows AS row
CALL {
  WITH row
  CALL db.index.vector.queryNodes('subgoal_embedding', $fetch, row.vector) YIELD node, score
  WITH node, score WHERE node.space = $space
  RETURN node AS s, score ORDER BY score DESC LIMIT 1
}
WITH row, s, score
WHERE score >= $min_score
RETURN row.key AS key, s.id AS id, score
