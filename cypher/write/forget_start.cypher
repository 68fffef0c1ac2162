// Open the AuditRecord of an erasure before anything is removed (state 'started', nothing removed yet), so an
// erasure that dies midway is visible and can be resumed. Only ids, names and counts: never erased text.
CREATE (a:AuditRecord {id: $audit_id})
SET a.space = $space, a.action = 'forget', a.state = 'started', a.by = $by, a.reason = $reason, a.at = $at,
    a.target_kind = $target_kind, a.target = $target, a.removed = '{}', a.removed_counts = '{}', a.batches = 0,
    a.runs = 1, a.recorded_at = $at, a.expired_at = $far,
    a.caption = 'forget ' + $target_kind + ' ' + $target + ' by ' + $by
RETURN a.id AS id
