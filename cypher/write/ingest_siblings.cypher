// Link facts drawn from the same step or document: (Semantic)-[:SIBLING]->(Semantic), within $space.
UNWIND $rows AS row
MATCH (a:Semantic {space: $space, id: row.from})
MATCH (b:Semantic {space: $space, id: row.to})
MERGE (a)-[:SIBLING]->(b)
