// For each incoming document: the first-recorded document of $space with the same content hash, which a
// new document with its own id, author or date repeats ((new)-[:REPEATS]->(first)).
UNWIND $rows AS row
OPTIONAL MATCH (same:Episodic {space: $space, content_hash: row.hash})
  WHERE same.kind = 'document' AND NOT (same)-[:REPEATS]->(:Episodic)
WITH row, same
ORDER BY same.recorded_at, same.id
RETURN row.i AS i, collect(same.id)[0] AS same_id
