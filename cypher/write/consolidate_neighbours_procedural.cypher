// Consolidation candidates in $space: for up to $max_nodes active Procedural nodes (newest records first), their
// $k nearest active neighbours in the procedural_embedding vector index with score >= $min_score (Cypher 25 SEARCH).
CYPHER 25
MATCH (a:Procedural {space: $space, status: 'active'})
WHERE a.embedding IS NOT NULL
WITH a ORDER BY a.recorded_at DESC, a.id LIMIT $max_nodes
CALL (a) {
  MATCH (b:Procedural)
  SEARCH b IN (VECTOR INDEX procedural_embedding FOR a.embedding
               WHERE b.space = $space AND b.status = 'active' LIMIT $k)
  SCORE AS score
  RETURN b, score
}
WITH a, b, score
WHERE b.id <> a.id AND score >= $min_score
RETURN 'Procedural' AS label, a.id AS a_id, b.id AS b_id, score
