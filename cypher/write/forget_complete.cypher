// Close erasure $audit_id in $space: state 'completed', when it finished.
MATCH (a:AuditRecord {id: $audit_id, space: $space})
SET a.state = 'completed', a.completed_at = $at
RETURN a.id AS id
