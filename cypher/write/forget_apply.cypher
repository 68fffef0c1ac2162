// Erase one batch that forget_plan listed in $space (DETACH DELETE: the one real delete in graphmem), then
// remove the Episodes among $episode_ids left with no unit. Returns the ids of the Episodes removed.
// The caller then recomputes the survivors' validity (write/revalidate) in the same transaction.
CALL () {
  UNWIND $semantic_ids AS id
  MATCH (n:Semantic {id: id, space: $space})
  DETACH DELETE n
}
CALL () {
  UNWIND $procedural_ids AS id
  MATCH (n:Procedural {id: id, space: $space})
  DETACH DELETE n
}
CALL () {
  UNWIND $episodic_ids AS id
  MATCH (n:Episodic {id: id, space: $space})
  DETACH DELETE n
}
CALL () {
  UNWIND $tag_ids AS id
  MATCH (n:Tag {id: id, space: $space})
  DETACH DELETE n
}
CALL () {
  UNWIND $subgoal_ids AS id
  MATCH (n:Subgoal {id: id, space: $space})
  DETACH DELETE n
}
CALL () {
  UNWIND $episode_ids AS id
  MATCH (ep:Episode {id: id, space: $space})
  WHERE NOT EXISTS { (:Episodic)-[:PART_OF]->(ep) }
  WITH ep, ep.id AS id
  DETACH DELETE ep
  RETURN collect(id) AS removed_episodes
}
RETURN removed_episodes
