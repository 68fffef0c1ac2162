// Create Semantic facts in $space and their provenance (Semantic)-[:EVIDENCED_BY]->(Episodic).
UNWIND $rows AS row
MERGE (f:Semantic {space: $space, id: row.id})
  ON CREATE SET f += row.props
WITH f, row
MATCH (e:Episodic {space: $space, id: row.evidence_id})
MERGE (f)-[:EVIDENCED_BY]->(e)
