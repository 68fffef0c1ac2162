// Fuzzy tag matches: for each query tag, the nearest Tag nodes of the space in the tag vector index, cosine >= $min_cosine.
CYPHER 25
UNWIND $queries AS q
CALL (q) {
  MATCH (t:Tag)
    SEARCH t IN (VECTOR INDEX tag_embedding FOR q.vector WHERE t.space = $space LIMIT $per_tag)
    SCORE AS score
  RETURN t, 2 * score - 1 AS similarity
}
WITH t, q, similarity
WHERE similarity >= $min_cosine
RETURN t.id AS id, t.name AS name, q.tag AS query_tag, similarity
