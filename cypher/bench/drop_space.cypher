// Benchmark cleanup: DETACH DELETE up to $batch nodes of one benchmark space; run until it returns 0.
// (`id IS NOT NULL` lets the planner seek the (space, id) index instead of scanning every space's nodes.)
CALL () {
  MATCH (n:Episodic) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Episode) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Semantic) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Tag) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Subgoal) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $batch
  UNION
  MATCH (n:Procedural) WHERE n.space = $space AND n.id IS NOT NULL RETURN n LIMIT $batch
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(n) AS deleted
