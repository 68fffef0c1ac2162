// Provenance of procedural insights: (Procedural)-[:EVIDENCED_BY]->(Episodic) for each step of its segment.
UNWIND $rows AS row
MATCH (p:Procedural {space: $space, id: row.from})
MATCH (e:Episodic {space: $space, id: row.to})
MERGE (p)-[:EVIDENCED_BY]->(e)
