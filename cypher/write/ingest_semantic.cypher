// Create Semantic facts in $space and their provenance (Semantic)-[:EVIDENCED_BY]->(Episodic).
UNWIND $rows AS row
MERGE (f:Semantic {id: row.id})
  ON CREATE SET f += row.props, f.space = $space
WITH f, row
MATCH (e:Episodic {id: row.evidence_id}) WHERE e.space = $space
MERGE (f)-[:EVIDENCED_BY]->(e)
