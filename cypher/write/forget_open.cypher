// The unfinished erasure (AuditRecord state 'started') of the same target in $space, if a run died midway:
// a rerun continues it. Parameters: $space, $target_kind ('id' | 'author' | 'all'), $target. (`id IS NOT NULL` lets
// the planner seek the (space, id) index instead of scanning every space's records.)
MATCH (a:AuditRecord)
WHERE a.space = $space AND a.id IS NOT NULL AND a.action = 'forget' AND a.state = 'started'
  AND a.target_kind = $target_kind AND a.target = $target
RETURN a.id AS id, a.by AS by, a.reason AS reason, a.at AS at, a.removed AS removed, a.batches AS batches
ORDER BY a.at
LIMIT 1
