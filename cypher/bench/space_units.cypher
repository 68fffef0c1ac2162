// Benchmark replay: every episodic unit of a kept space with its seq and its Episode (id, session id), so a
// later run can map graph ids back to dataset keys without ingesting again.
MATCH (n:Episodic {space: $space})
OPTIONAL MATCH (n)-[:PART_OF]->(e:Episode {space: $space})
RETURN n.id AS id, n.seq AS seq, e.id AS episode_id, e.session_id AS session_id
