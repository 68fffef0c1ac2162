// Chain consecutive Episodic steps/turns: (earlier)-[:NEXT]->(later), within $space.
UNWIND $rows AS row
MATCH (a:Episodic {space: $space, id: row.from})
MATCH (b:Episodic {space: $space, id: row.to})
MERGE (a)-[:NEXT]->(b)
