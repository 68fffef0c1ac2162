// Count one more run of an unfinished erasure $audit_id in $space (a rerun after a run that died midway).
MATCH (a:AuditRecord {id: $audit_id, space: $space})
SET a.runs = coalesce(a.runs, 1) + 1, a.resumed_at = $at
RETURN a.runs AS runs
