// Repeats: (later)-[:REPEATS]->(earlier) for a unit whose text an earlier unit of $space already holds, and
// the earlier unit's facts gain the later one as a second piece of evidence (the facts are shared, not copied).
UNWIND $rows AS row
MATCH (later:Episodic {space: $space, id: row.from})
MATCH (earlier:Episodic {space: $space, id: row.to})
MERGE (later)-[:REPEATS]->(earlier)
WITH later, earlier
CALL (later, earlier) {
  MATCH (f:Semantic {space: $space})-[:EVIDENCED_BY]->(earlier)
  MERGE (f)-[:EVIDENCED_BY]->(later)
}
