// Record one finished batch of erasure $audit_id in $space, in the batch's own transaction: the ids removed so
// far ($removed, JSON label -> ids), their counts ($removed_counts, JSON) and the number of batches.
MATCH (a:AuditRecord {id: $audit_id, space: $space})
SET a.removed = $removed, a.removed_counts = $removed_counts, a.batches = coalesce(a.batches, 0) + 1
RETURN a.batches AS batches
