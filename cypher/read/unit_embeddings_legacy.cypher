// Embeddings and subject tags of the given units in $space, for servers without the VECTOR type (before
// 2025.10): as read/unit_embeddings, with each embedding as a list of floats.
UNWIND $ids AS node_id
CALL (node_id) {
  MATCH (n:Semantic {id: node_id}) WHERE n.space = $space
  RETURN n, COLLECT { MATCH (t:Tag)-[:TAGS]->(n) RETURN t.norm_name } AS tags,
         COLLECT { MATCH (t:Tag {space: $space})-[:TAGS]->(n) RETURN t.name } AS tag_names,
         COLLECT { MATCH (n)-[:EVIDENCED_BY]->(e:Episodic) RETURN e.text } AS source_texts,
         COLLECT { MATCH (n)-[:EVIDENCED_BY]->(e:Episodic) RETURN e.embedding ORDER BY e.id LIMIT 1 } AS sources
  UNION
  MATCH (n:Procedural {id: node_id}) WHERE n.space = $space
  RETURN n, [] AS tags, null AS tag_names, [n.text] AS source_texts, [n.embedding] AS sources
  UNION
  MATCH (n:Episodic {id: node_id}) WHERE n.space = $space
  RETURN n, COLLECT { MATCH (t:Tag)-[:TAGS]->(:Semantic)-[:EVIDENCED_BY]->(n) RETURN DISTINCT t.norm_name } AS tags,
         null AS tag_names, [n.text] AS source_texts, [n.embedding] AS sources
}
RETURN n.id AS id, n.embedding AS embedding, sources[0] AS source_embedding, tags, tag_names, source_texts
