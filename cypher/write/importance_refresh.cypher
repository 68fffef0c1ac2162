// Recompute `importance` of the Semantic and Procedural nodes of $space named in $ids or evidenced by an
// Episodic unit named in $units: importance_weight (the caller's weight, 1 when absent) x (independent sources
// of evidence, at least 1, + recorded uses). A source is an evidence unit's Episode, or the unit itself where
// it belongs to none (a document). The first SET takes each node's write lock before its inputs are read, so a
// writer waits for a concurrent one to commit and then counts what that one added: no update is lost.
CALL () {
  UNWIND $ids AS id
  MATCH (n:Semantic {space: $space, id: id})
  RETURN n
  UNION
  UNWIND $ids AS id
  MATCH (n:Procedural {space: $space, id: id})
  RETURN n
  UNION
  UNWIND $units AS unit
  MATCH (n:Semantic|Procedural)-[:EVIDENCED_BY]->(:Episodic {space: $space, id: unit})
  WHERE n.space = $space
  RETURN n
}
SET n.importance = coalesce(n.importance, 0.0)
WITH n, size(COLLECT {
  MATCH (n)-[:EVIDENCED_BY]->(e:Episodic)
  OPTIONAL MATCH (e)-[:PART_OF]->(ep:Episode)
  RETURN DISTINCT coalesce(ep.id, e.id) AS source
}) AS sources
SET n.importance = coalesce(n.importance_weight, 1.0)
                   * (CASE WHEN sources < 1 THEN 1 ELSE sources END + coalesce(n.uses, 0))
RETURN n.id AS id, n.importance AS importance
