// Link tags to the facts they key: (Tag)-[:TAGS]->(Semantic), within $space.
UNWIND $rows AS row
MATCH (t:Tag {id: row.tag_id}) WHERE t.space = $space
MATCH (f:Semantic {id: row.fact_id}) WHERE f.space = $space
MERGE (t)-[:TAGS]->(f)
