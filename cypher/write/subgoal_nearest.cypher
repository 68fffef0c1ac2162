// For each row's vector, the $per_key most similar Subgoals in $space via the subgoal vector index with
// score >= $min_score, nearest first.
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (s:Subgoal)
  SEARCH s IN (VECTOR INDEX subgoal_embedding FOR row.vector WHERE s.space = $space LIMIT $per_key) SCORE AS score
  RETURN s, score
}
WITH row, s, score
WHERE score >= $min_score
RETURN row.key AS key, s.id AS id, s.text AS name, score
