// Link each Episodic to its Episode: (Episodic)-[:PART_OF]->(Episode), within $space.
UNWIND $rows AS row
MATCH (n:Episodic {id: row.id}) WHERE n.space = $space
MATCH (e:Episode {id: row.episode_id}) WHERE e.space = $space
MERGE (n)-[:PART_OF]->(e)
