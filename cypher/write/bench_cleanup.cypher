// Benchmark cleanup: detach-delete up to $limit nodes of a throwaway benchmark $space; run until 0.
// (`id IS NOT NULL` lets the planner seek the (space, id) index instead of scanning every space's nodes.)
CALL () {
  MATCH (n:Episodic) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $limit
  UNION
  MATCH (n:Semantic) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $limit
  UNION
  MATCH (n:Tag) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $limit
  UNION
  MATCH (n:Episode) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $limit
  UNION
  MATCH (n:Subgoal) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $limit
  UNION
  MATCH (n:Procedural) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $limit
}
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
