// The unfinished erasure (AuditRecord state 'started') of the same target in $space, if a run died midway:
// a rerun continues it. Parameters: $space, $target_kind ('id' | 'author' | 'all'), $target.
MATCH (a:AuditRecord {space: $space, action: 'forget', state: 'started'})
WHERE a.target_kind = $target_kind AND a.target = $target
RETURN a.id AS id, a.by AS by, a.reason AS reason, a.at AS at, a.removed AS removed, a.batches AS batches
ORDER BY a.at
LIMIT 1
