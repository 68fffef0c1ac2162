// For each row's vector, the most similar Tag in $space via the tag vector index, if its score >= $min_score.
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (t:Tag)
  SEARCH t IN (VECTOR INDEX tag_embedding FOR row.vector WHERE t.space = $space LIMIT 1) SCORE AS score
  RETURN t, score
}
WITH row, t, score
WHERE score >= $min_score
RETURN row.key AS key, t.id AS id, score
