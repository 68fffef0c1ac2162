// Requested supersessions ($rows) in $space that now close a SUPERSEDES cycle (old already leads back to new).
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
WHERE new IS NOT NULL AND old IS NOT NULL
  AND EXISTS { MATCH (old)-[:SUPERSEDES*1..]->(new) }
RETURN i AS index
ORDER BY index
