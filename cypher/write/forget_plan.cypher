// What forgetting Episode $episode_id in $space removes: the episode, its Episodic units, the Semantic and
// Procedural nodes whose evidence lies ONLY in those units, any merged node built over one of those (its text
// may carry the erased wording), Tags and Subgoals left with nothing else, and the surviving versions the
// removed nodes had superseded or merged (to reopen). Reads only.
MATCH (ep:Episode {id: $episode_id, space: $space})
OPTIONAL MATCH (u:Episodic {space: $space})-[:PART_OF]->(ep)
WITH ep, collect(u) AS units
CALL (units) {
  UNWIND units AS u
  MATCH (d)-[:EVIDENCED_BY]->(u)
  WHERE (d:Semantic OR d:Procedural) AND d.space = $space
  WITH DISTINCT d
  WHERE NOT EXISTS { MATCH (d)-[:EVIDENCED_BY]->(x) WHERE NOT x IN units }
  RETURN collect(d) AS only_derived
}
CALL (only_derived) {
  UNWIND only_derived AS d
  MATCH (m)-[:MERGED_FROM*1..10]->(d)
  WHERE (m:Semantic OR m:Procedural) AND m.space = $space
  RETURN collect(DISTINCT m) AS merged_over
}
WITH ep, units, only_derived + [m IN merged_over WHERE NOT m IN only_derived] AS derived
CALL (derived) {
  UNWIND derived AS d
  MATCH (t:Tag)-[:TAGS]->(d)
  WITH DISTINCT t
  WHERE NOT EXISTS { MATCH (t)-[:TAGS]->(f) WHERE NOT f IN derived }
  RETURN collect(t.id) AS tag_ids
}
CALL (derived) {
  UNWIND derived AS d
  MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(d)
  WITH DISTINCT g
  WHERE NOT EXISTS { MATCH (g)-[:HAS_PROCEDURE]->(p) WHERE NOT p IN derived }
  RETURN collect(g.id) AS subgoal_ids
}
CALL (units, derived) {
  UNWIND units + derived AS gone
  MATCH (gone)-[:SUPERSEDES|MERGED_FROM]->(o)
  WHERE NOT o IN units AND NOT o IN derived AND o.space = $space
  RETURN collect(DISTINCT o.id) AS reopen_ids
}
RETURN ep.id AS episode_id,
       [u IN units | u.id] AS episodic_ids,
       [d IN derived WHERE d:Semantic | d.id] AS semantic_ids,
       [d IN derived WHERE d:Procedural | d.id] AS procedural_ids,
       tag_ids, subgoal_ids, reopen_ids
