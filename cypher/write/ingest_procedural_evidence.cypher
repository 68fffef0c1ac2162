// Provenance of procedural insights: (Procedural)-[:EVIDENCED_BY]->(Episodic) for each step of its segment.
UNWIND $rows AS row
MATCH (p:Procedural {id: row.from}) WHERE p.space = $space
MATCH (e:Episodic {id: row.to}) WHERE e.space = $space
MERGE (p)-[:EVIDENCED_BY]->(e)
