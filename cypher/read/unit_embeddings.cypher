// Embeddings and subject tags of the given units in $space, for read-time version choice: a fact's or a
// procedure's own tags (normal forms), an evidence unit's the tags of the facts derived from it; a fact also
// brings its tag names in the space, which contradiction surfacing reads. Embeddings come back as VECTOR
// values (packed bytes: a list of floats costs the Python driver ~1 ms a unit to decode).
CYPHER 25
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
WITH n, tags, tag_names, source_texts, sources[0] AS source
RETURN n.id AS id, tags, tag_names, source_texts,
       CASE WHEN size(n.embedding) > 0 THEN VECTOR(n.embedding, size(n.embedding), FLOAT64) END AS embedding,
       CASE WHEN size(source) > 0 THEN VECTOR(source, size(source), FLOAT64) END AS source_embedding
