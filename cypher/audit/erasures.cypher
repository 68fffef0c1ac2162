// Erasures (forget) recorded in a space: who removed which episode, when, and how many nodes of each kind.
// Parameters: $space (text).
MATCH (a:AuditRecord {space: $space})
RETURN a.id AS id, a.action AS action, a.target AS target, a.by AS by, a.at AS at,
       a.removed_counts AS removed_counts, a.removed AS removed
ORDER BY at DESC
