// Fuzzy tag matches for servers before 2026.01: over-fetching tag index kNN per query tag, then the space filter.
UNWIND $queries AS q
CALL (q) {
  CALL db.index.vector.queryNodes('tag_embedding', $fetch, q.vector) YIELD node AS t, score
  WITH t, score
  WHERE t.space = $space
  RETURN t, 2 * score - 1 AS similarity
  ORDER BY similarity DESC
  LIMIT $per_tag
}
WITH t, q, similarity
WHERE similarity >= $min_cosine
RETURN t.id AS id, t.name AS name, q.tag AS query_tag, similarity
