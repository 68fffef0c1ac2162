// Erasures (forget) recorded in a space, newest first: who erased what (target_kind 'id' | 'author' | 'all' and
// the target they named), why, when it started and completed, its state ('started' = unfinished: rerun the
// same command to finish it), how many runs and batches it took, how many nodes of each kind and which ids
// went. Never the erased text. Parameters: $space (text). (`id IS NOT NULL` lets the planner seek the (space, id)
// index instead of scanning every space's records.)
MATCH (a:AuditRecord)
WHERE a.space = $space AND a.id IS NOT NULL AND a.action = 'forget'
RETURN a.id AS id, a.action AS action, a.target_kind AS target_kind, a.target AS target, a.by AS by,
       a.reason AS reason, a.at AS at, a.completed_at AS completed_at, a.state AS state, a.runs AS runs,
       a.batches AS batches, a.removed_counts AS removed_counts, a.removed AS removed
ORDER BY at DESC
