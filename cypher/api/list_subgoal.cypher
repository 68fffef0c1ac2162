// One page of a space's subgoals known at $known_at, by text (keyset on text, id).
MATCH (n:Subgoal)
WHERE n.space = $space
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($after_id IS NULL OR n.text > $after_key OR (n.text = $after_key AND n.id > $after_id))
RETURN n {.*, embedding: null} AS node, n.text AS sort_key
ORDER BY n.text, n.id
LIMIT $limit
