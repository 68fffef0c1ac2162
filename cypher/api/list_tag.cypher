// One page of a space's tags known at $known_at, by normal name (keyset on norm_name, id).
// (`id IS NOT NULL` lets the planner seek the (space, id) index instead of scanning every space's tags.)
MATCH (n:Tag)
WHERE n.space = $space AND n.id IS NOT NULL
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($prefix IS NULL OR n.norm_name STARTS WITH $prefix)
  AND ($after_id IS NULL OR n.norm_name > $after_key OR (n.norm_name = $after_key AND n.id > $after_id))
RETURN n {.*, embedding: null} AS node, n.norm_name AS sort_key
ORDER BY n.norm_name, n.id
LIMIT $limit
