// Benchmark cleanup: DETACH DELETE up to $batch nodes of one benchmark space; run until it returns 0.
CALL () {
  MATCH (n:Episodic {space: $space}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Episode {space: $space}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Semantic {space: $space}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Tag {space: $space}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Subgoal {space: $space}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Procedural {space: $space}) RETURN n LIMIT $batch
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n) AS deleted
