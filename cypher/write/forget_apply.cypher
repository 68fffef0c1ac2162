// Erase what forget_plan listed in $space (DETACH DELETE: the one real delete in graphmem), then reopen the
// surviving versions ($reopen_ids) those nodes had closed: validity and status follow what still supersedes
// or merges them. Finally record an AuditRecord {id, action, by, at, target, removed, removed_counts}.
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
  MATCH (ep:Episode {id: $episode_id, space: $space})
  DETACH DELETE ep
}
CALL () {
  UNWIND $reopen_ids AS id
  OPTIONAL MATCH (s:Semantic {id: id, space: $space})
  OPTIONAL MATCH (p:Procedural {id: id, space: $space})
  OPTIONAL MATCH (e:Episodic {id: id, space: $space})
  WITH coalesce(s, p, e) AS o
  WHERE o IS NOT NULL
  WITH o, COLLECT { MATCH (newer)-[r:SUPERSEDES]->(o) RETURN r.at } AS closings,
       EXISTS { MATCH (m)-[:MERGED_FROM]->(o) } AS still_merged
  WHERE NOT still_merged
  SET o.status = CASE WHEN size(closings) > 0 THEN 'superseded' ELSE 'active' END,
      o.valid_to = reduce(earliest = $far, at IN closings | CASE WHEN at < earliest THEN at ELSE earliest END)
}
CREATE (a:AuditRecord {id: $audit_id})
SET a.space = $space, a.action = 'forget', a.by = $by, a.at = $at, a.target = $episode_id,
    a.removed = $removed, a.removed_counts = $removed_counts, a.recorded_at = $at, a.expired_at = $far,
    a.caption = 'forget ' + $episode_id + ' by ' + $by
RETURN a.id AS audit_id
