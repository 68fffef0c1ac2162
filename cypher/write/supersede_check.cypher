// Validation facts for each requested supersession ($rows: [{new_id, old_id, at, ...}]) within $space:
// the label and start of both versions (null when absent from this space) — checked before anything is written.
UNWIND range(0, size($rows) - 1) AS i
WITH i, $rows[i] AS row
OPTIONAL MATCH (ns:Semantic {id: row.new_id, space: $space})
OPTIONAL MATCH (np:Procedural {id: row.new_id, space: $space})
OPTIONAL MATCH (ne:Episodic {id: row.new_id, space: $space})
WITH i, row, coalesce(ns, np, ne) AS new
OPTIONAL MATCH (os:Semantic {id: row.old_id, space: $space})
OPTIONAL MATCH (op:Procedural {id: row.old_id, space: $space})
OPTIONAL MATCH (oe:Episodic {id: row.old_id, space: $space})
WITH i, row, new, coalesce(os, op, oe) AS old
RETURN i AS index,
       [l IN labels(new) WHERE l IN ['Semantic', 'Procedural', 'Episodic']][0] AS new_label,
       [l IN labels(old) WHERE l IN ['Semantic', 'Procedural', 'Episodic']][0] AS old_label,
       old.valid_from AS old_valid_from
ORDER BY index
