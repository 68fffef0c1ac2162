// Benchmark scoring: the evidence units (Episodic id, its Episode id, seq) behind the given facts and procedures.
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Semantic {id: id})-[:EVIDENCED_BY]->(e:Episodic)
  WHERE n.space = $space AND e.space = $space
  RETURN e
  UNION
  MATCH (n:Procedural {id: id})-[:EVIDENCED_BY]->(e:Episodic)
  WHERE n.space = $space AND e.space = $space
  RETURN e
}
OPTIONAL MATCH (e)-[:PART_OF]->(ep:Episode)
RETURN id, e.id AS unit_id, ep.id AS episode_id, e.seq AS seq
