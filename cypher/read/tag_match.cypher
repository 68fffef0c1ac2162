// The query's tags matched to the space's Tag nodes in one round trip: `exact`, the Tag nodes whose normal
// form is one of $norms; `fuzzy`, for each query tag the nearest Tag nodes of the space in the tag vector
// index, cosine >= $min_cosine (read/legs/tags.py keeps an exact match over a fuzzy one).
CYPHER 25
CALL () {
  UNWIND $norms AS norm
  MATCH (t:Tag {space: $space, norm_name: norm})
  RETURN t.id AS id, t.name AS name, norm AS query_tag, 1.0 AS similarity, 'exact' AS match
  UNION ALL
  UNWIND $queries AS q
  CALL (q) {
    MATCH (t:Tag)
      SEARCH t IN (VECTOR INDEX tag_embedding FOR q.vector WHERE t.space = $space LIMIT $per_tag)
      SCORE AS score
    RETURN t, 2 * score - 1 AS similarity
  }
  WITH t, q, similarity
  WHERE similarity >= $min_cosine
  RETURN t.id AS id, t.name AS name, q.tag AS query_tag, similarity, 'fuzzy' AS match
}
RETURN id, name, query_tag, similarity, match
