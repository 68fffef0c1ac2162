// Pre-2026 servers: the $per_key most similar Tags in $space per row via db.index.vector.queryNodes with
// over-fetch, nearest first.
UNWIND $rows AS row
CALL {
  WITH row
  CALL db.index.vector.queryNodes('tag_embedding', $fetch, row.vector) YIELD node, score
  WITH node, score WHERE node.space = $space
  RETURN node AS t, score ORDER BY score DESC LIMIT $per_key
}
WITH row, t, score
WHERE score >= $min_score
RETURN row.key AS key, t.id AS id, t.name AS name, score
