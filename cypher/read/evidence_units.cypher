// Evidence units (with episode and order) behind the given facts / procedures, as they stood at as_of:
// units dated after as_of or recorded after known_at are left out, so an as-of answer never cites the future.
UNWIND $ids AS node_id
CALL (node_id) {
  MATCH (n:Semantic {id: node_id})-[:EVIDENCED_BY]->(u:Episodic)
  WHERE n.space = $space RETURN u
  UNION
  MATCH (n:Procedural {id: node_id})-[:EVIDENCED_BY]->(u:Episodic)
  WHERE n.space = $space RETURN u
}
WITH node_id, u
WHERE u.space = $space AND u.valid_from <= $as_of AND u.recorded_at <= $known_at
  AND coalesce(u.event_at, u.valid_from) <= $as_of
OPTIONAL MATCH (u)-[:PART_OF]->(ep:Episode {space: $space})
RETURN node_id, u.id AS id,
       coalesce(u.text, trim(coalesce(u.action, '') + ' ' + coalesce(u.observation, ''))) AS text,
       coalesce(u.event_at, u.valid_from) AS event_at, u.author AS author, u.seq AS seq,
       ep.id AS episode_id, ep.session_id AS session_id, ep.goal AS episode_goal
ORDER BY node_id, event_at, seq
