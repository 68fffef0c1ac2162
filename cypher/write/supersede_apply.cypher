// Link each (new)-[:SUPERSEDES {at, recorded_at, kind, reason, by}]->(old) in $space: the record that closes
// the old version at `at` (write/revalidate then updates its cached validity); text, dates and edges stay. A
// newly found conflict multiplies the old version's credibility by $conflict_factor. Idempotent (MERGE).
UNWIND $rows AS row
OPTIONAL MATCH (ns:Semantic {id: row.new_id, space: $space})
OPTIONAL MATCH (np:Procedural {id: row.new_id, space: $space})
OPTIONAL MATCH (ne:Episodic {id: row.new_id, space: $space})
WITH row, coalesce(ns, np, ne) AS new
OPTIONAL MATCH (os:Semantic {id: row.old_id, space: $space})
OPTIONAL MATCH (op:Procedural {id: row.old_id, space: $space})
OPTIONAL MATCH (oe:Episodic {id: row.old_id, space: $space})
WITH row, new, coalesce(os, op, oe) AS old
WHERE new IS NOT NULL AND old IS NOT NULL
OPTIONAL MATCH (new)-[existing:SUPERSEDES]->(old)
WITH row, new, old, existing IS NULL AS created
MERGE (new)-[r:SUPERSEDES]->(old)
  ON CREATE SET r.at = row.at, r.recorded_at = $recorded_at, r.kind = row.kind, r.reason = row.reason,
                r.by = row.by
SET old.credibility = CASE WHEN created AND row.kind = 'conflict' AND old.credibility IS NOT NULL
                           THEN old.credibility * $conflict_factor ELSE old.credibility END
RETURN count(CASE WHEN created THEN 1 END) AS created
