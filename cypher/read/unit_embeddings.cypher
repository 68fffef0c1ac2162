// Embeddings and subject tags of the given units in $space, for read-time version choice: a fact's or a
// procedure's own tags, an evidence unit's the tags of the facts derived from it.
UNWIND $ids AS node_id
CALL (node_id) {
  MATCH (n:Semantic {id: node_id}) WHERE n.space = $space
  RETURN n, COLLECT { MATCH (t:Tag)-[:TAGS]->(n) RETURN t.norm_name } AS tags
  UNION
  MATCH (n:Procedural {id: node_id}) WHERE n.space = $space
  RETURN n, [] AS tags
  UNION
  MATCH (n:Episodic {id: node_id}) WHERE n.space = $space
  RETURN n, COLLECT { MATCH (t:Tag)-[:TAGS]->(:Semantic)-[:EVIDENCED_BY]->(n) RETURN DISTINCT t.norm_name } AS tags
}
RETURN n.id AS id, n.embedding AS embedding, tags
