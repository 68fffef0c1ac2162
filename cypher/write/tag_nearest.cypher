// For each row's vector, the $per_key most similar Tags in $space via the tag vector index with score
// >= $min_score, nearest first (write/dedup.py keeps the nearest whose name carries the row's numbers).
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (t:Tag)
  SEARCH t IN (VECTOR INDEX tag_embedding FOR row.vector WHERE t.space = $space LIMIT $per_key) SCORE AS score
  RETURN t, score
}
WITH row, t, score
WHERE score >= $min_score
RETURN row.key AS key, t.id AS id, t.name AS name, score
