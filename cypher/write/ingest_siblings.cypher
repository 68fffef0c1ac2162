// Link facts drawn from the same step or document: (Semantic)-[:SIBLING]->(Semantic), within $space.
UNWIND $rows AS row
MATCH (a:Semantic {id: row.from}) WHERE a.space = $space
MATCH (b:Semantic {id: row.to}) WHERE b.space = $space
MERGE (a)-[:SIBLING]->(b)
