// Chain consecutive Episodic steps/turns: (earlier)-[:NEXT]->(later), within $space.
UNWIND $rows AS row
MATCH (a:Episodic {id: row.from}) WHERE a.space = $space
MATCH (b:Episodic {id: row.to}) WHERE b.space = $space
MERGE (a)-[:NEXT]->(b)
