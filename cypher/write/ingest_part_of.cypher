// Link each Episodic to its Episode: (Episodic)-[:PART_OF]->(Episode), within $space.
UNWIND $rows AS row
MATCH (n:Episodic {space: $space, id: row.id})
MATCH (e:Episode {space: $space, id: row.episode_id})
MERGE (n)-[:PART_OF]->(e)
