// Benchmark replay: every episodic unit of a kept space with its seq and its Episode (id, session id), so a
// later run can map graph ids back to dataset keys without ingesting again. (`id IS NOT NULL` lets the planner seek
// the (space, id) index instead of scanning every space's units.)
MATCH (n:Episodic)
WHERE n.space = $space AND n.id IS NOT NULL
OPTIONAL MATCH (n)-[:PART_OF]->(e:Episode {space: $space})
RETURN n.id AS id, n.seq AS seq, e.id AS episode_id, e.session_id AS session_id
