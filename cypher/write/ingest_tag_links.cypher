// Link tags to the facts they key: (Tag)-[:TAGS]->(Semantic), within $space.
UNWIND $rows AS row
MATCH (t:Tag {space: $space, id: row.tag_id})
MATCH (f:Semantic {space: $space, id: row.fact_id})
MERGE (t)-[:TAGS]->(f)
