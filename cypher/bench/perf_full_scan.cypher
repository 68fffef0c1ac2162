// Reference only (what Graphiti and mem0 do): cosine computed over every fact of a space, no vector index.
MATCH (n:Semantic {space: $space})
WHERE n.status = 'active'
WITH n, vector.similarity.cosine(n.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN n.id AS id, score
