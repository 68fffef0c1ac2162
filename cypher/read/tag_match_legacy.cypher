// `read/tag_match` for servers before 2026.01 (no SEARCH clause): the fuzzy matches over-fetch the tag
// index's kNN per query tag ($fetch), then filter by space.
CALL () {
  UNWIND $norms AS norm
  MATCH (t:Tag {space: $space, norm_name: norm})
  RETURN t.id AS id, t.name AS name, norm AS query_tag, 1.0 AS similarity, 'exact' AS match
  UNION ALL
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
  RETURN t.id AS id, t.name AS name, q.tag AS query_tag, similarity, 'fuzzy' AS match
}
RETURN id, name, query_tag, similarity, match
