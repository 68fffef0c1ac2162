// Passages behind candidate units: each given id (a document, or a fact resting on documents) with the
// documents it is or rests on and whether each carries a writer's date (`dated`; an upload without dates is
// `dated: false`, a passage of reference text). Passage bridges rank passages from these.
UNWIND $ids AS unit_id
CALL (unit_id) {
  MATCH (d:Episodic {id: unit_id})
  WHERE d.space = $space AND d.kind = 'document'
  RETURN d
  UNION
  MATCH (:Semantic {id: unit_id, space: $space})-[:EVIDENCED_BY]->(d:Episodic)
  WHERE d.space = $space AND d.kind = 'document'
  RETURN d
}
RETURN unit_id AS id, d.id AS document_id, coalesce(d.dated, true) AS dated
