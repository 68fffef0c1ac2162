// Consolidation candidates in $space: pairs of active facts that share a tag, skipping hub tags that tag
// more than $max_tag_degree active facts (so the pairs stay bounded), most shared tags first, at most $limit.
MATCH (t:Tag {space: $space})
WHERE t.norm_name IS NOT NULL
  AND COUNT { (t)-[:TAGS]->(:Semantic {status: 'active'}) } <= $max_tag_degree
MATCH (a:Semantic {space: $space, status: 'active'})<-[:TAGS]-(t)-[:TAGS]->(b:Semantic {space: $space, status: 'active'})
WHERE a.id < b.id
WITH a, b, count(DISTINCT t) AS shared_tags
ORDER BY shared_tags DESC, a.id, b.id
LIMIT $limit
RETURN 'Semantic' AS label, a.id AS a_id, b.id AS b_id
