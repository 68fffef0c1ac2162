// Erasing a whole space, after its units: up to $batch_size of each remaining kind of node in $space
// (facts and procedures without evidence, tags, subgoals, episodes), removed. AuditRecords stay.
// Returns the ids removed, by label. (`n.id IS NOT NULL` lets the planner seek the (space, id) index
// instead of scanning every space's nodes of the label.)
CALL () {
  MATCH (n:Semantic) WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $batch_size
  WITH n, n.id AS id
  DETACH DELETE n
  RETURN collect(id) AS semantic_ids
}
CALL () {
  MATCH (n:Procedural) WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $batch_size
  WITH n, n.id AS id
  DETACH DELETE n
  RETURN collect(id) AS procedural_ids
}
CALL () {
  MATCH (n:Tag) WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $batch_size
  WITH n, n.id AS id
  DETACH DELETE n
  RETURN collect(id) AS tag_ids
}
CALL () {
  MATCH (n:Subgoal) WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $batch_size
  WITH n, n.id AS id
  DETACH DELETE n
  RETURN collect(id) AS subgoal_ids
}
CALL () {
  MATCH (n:Episode) WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $batch_size
  WITH n, n.id AS id
  DETACH DELETE n
  RETURN collect(id) AS episode_ids
}
RETURN semantic_ids, procedural_ids, tag_ids, subgoal_ids, episode_ids
