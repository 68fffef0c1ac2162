// One page of a space's evidence units valid at $as_of and known at $known_at, newest first (keyset on valid_from, id).
MATCH (n:Episodic)
WHERE n.space = $space
  AND n.valid_from <= $as_of AND n.valid_to > $open_after
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
  AND n.status IN $statuses
  AND ($kind IS NULL OR n.kind = $kind)
  AND ($author IS NULL OR n.author = $author)
  AND ($episode IS NULL OR EXISTS {
    MATCH (n)-[:PART_OF]->(ep:Episode {id: $episode}) WHERE ep.space = $space
  })
  AND ($after_id IS NULL OR n.valid_from < $after_key OR (n.valid_from = $after_key AND n.id < $after_id))
RETURN n {.*, embedding: null} AS node, n.valid_from AS sort_key
ORDER BY n.valid_from DESC, n.id DESC
LIMIT $limit
