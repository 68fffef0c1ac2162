// When a superseded version is an evidence unit (a document, step or turn), retire the facts and
// procedures that rest on it alone: their validity closes at the supersession date, status 'superseded'.
// Their text, dates and EVIDENCED_BY edges stay, so provenance shows why (the unit's SUPERSEDES edge).
UNWIND $rows AS row
MATCH (old:Episodic {id: row.old_id, space: $space})<-[:EVIDENCED_BY]-(derived)
WHERE (derived:Semantic OR derived:Procedural) AND derived.space = $space AND derived.status = 'active'
  AND NOT EXISTS {
    MATCH (derived)-[:EVIDENCED_BY]->(other:Episodic)
    WHERE other.status = 'active'
  }
SET derived.valid_to = CASE WHEN row.at < derived.valid_to THEN row.at ELSE derived.valid_to END,
    derived.status = 'superseded'
RETURN count(derived) AS retired
