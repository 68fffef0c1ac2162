// Benchmark cleanup: detach-delete up to $limit nodes of a throwaway benchmark $space; run until 0.
CALL () {
  MATCH (n:Episodic {space: $space}) RETURN n LIMIT $limit
  UNION
  MATCH (n:Semantic {space: $space}) RETURN n LIMIT $limit
  UNION
  MATCH (n:Tag {space: $space}) RETURN n LIMIT $limit
  UNION
  MATCH (n:Episode {space: $space}) RETURN n LIMIT $limit
  UNION
  MATCH (n:Subgoal {space: $space}) RETURN n LIMIT $limit
  UNION
  MATCH (n:Procedural {space: $space}) RETURN n LIMIT $limit
}
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
