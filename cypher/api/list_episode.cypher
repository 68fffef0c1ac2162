// One page of a space's episodes known at $known_at, most recently recorded first (keyset on recorded_at, id).
// (`id IS NOT NULL` lets the planner seek the (space, id) index instead of scanning every space's episodes.)
MATCH (n:Episode)
WHERE n.space = $space AND n.id IS NOT NULL
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($kind IS NULL OR n.kind = $kind)
  AND ($session_id IS NULL OR n.session_id = $session_id)
  AND ($after_id IS NULL OR n.recorded_at < $after_key OR (n.recorded_at = $after_key AND n.id < $after_id))
RETURN n {.*} AS node, n.recorded_at AS sort_key
ORDER BY n.recorded_at DESC, n.id DESC
LIMIT $limit
