// For each row's vector, the most similar Subgoal in $space via the subgoal vector index, if score >= $min_score.
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (s:Subgoal)
  SEARCH s IN (VECTOR INDEX subgoal_embedding FOR row.vector WHERE s.space = $space LIMIT 1) SCORE AS score
  RETURN s, score
}
WITH row, s, score
WHERE score >= $min_score
RETURN row.key AS key, s.id AS id, score
