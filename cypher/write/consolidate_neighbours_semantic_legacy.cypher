// Consolidation candidates in $space on servers without the SEARCH clause: for up to $max_nodes active
// Semantic nodes, nearest neighbours from db.index.vector.queryNodes, over-fetched then filtered to $k in space.
MATCH (a:Semantic {space: $space, status: 'active'})
WHERE a.embedding IS NOT NULL
WITH a ORDER BY a.recorded_at DESC, a.id LIMIT $max_nodes
CALL {
  WITH a
  CALL db.index.vector.queryNodes('semantic_embedding', $k * $overfetch, a.embedding) YIELD node, score
  WITH node AS b, score
  WHERE b.space = $space AND b.status = 'active'
  RETURN b, score
  ORDER BY score DESC
  LIMIT $k
}
WITH a, b, score
WHERE b.id <> a.id AND score >= $min_score
RETURN 'Semantic' AS label, a.id AS a_id, b.id AS b_id, score
