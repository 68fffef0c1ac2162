// Which nodes of $space already hold each of the given ids: the kind (an evidence unit's own kind: document,
// step, turn; else episode, fact, procedure, tag, subgoal) and, for evidence units and episodes, the content hash.
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Episodic {space: $space, id: id}) RETURN n.kind AS kind, n.content_hash AS hash
  UNION ALL
  MATCH (n:Episode {space: $space, id: id}) RETURN 'episode' AS kind, n.content_hash AS hash
  UNION ALL
  MATCH (n:Semantic {space: $space, id: id}) RETURN 'fact' AS kind, null AS hash
  UNION ALL
  MATCH (n:Procedural {space: $space, id: id}) RETURN 'procedure' AS kind, null AS hash
  UNION ALL
  MATCH (n:Tag {space: $space, id: id}) RETURN 'tag' AS kind, null AS hash
  UNION ALL
  MATCH (n:Subgoal {space: $space, id: id}) RETURN 'subgoal' AS kind, null AS hash
}
RETURN id, kind, hash
