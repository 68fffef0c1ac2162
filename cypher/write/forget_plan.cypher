// The next batch of an erasure in $space (reads only). $mode picks the evidence units erased:
// 'id' = the Episodic unit $id and the units PART_OF the Episode $id; 'author' = every unit whose author is
// $author (documents, steps, turns); 'all' = every unit of the space. At most $batch_size units are taken.
// With them go: the Semantic / Procedural nodes whose evidence lies ONLY in erased units (a unit of this or a
// later batch: anything matching the target), in 'author' mode also the author's own facts that have no
// evidence at all, any merged node built over one of those (its text may carry the erased wording),
// and Tags and Subgoals left with nothing else. `touched` = surviving nodes whose cached validity must be
// recomputed: versions the erased nodes had superseded or merged, and facts that lose an evidence unit.
// `episode_ids` = the Episodes of the batch's units (removed once no unit is left in them).
// (`id IS NOT NULL` lets the planner seek the (space, id) index instead of scanning every space's nodes.)
CALL () {
  MATCH (u:Episodic) WHERE $mode = 'all' AND u.space = $space AND u.id IS NOT NULL
  RETURN u
  UNION
  MATCH (u:Episodic) WHERE $mode = 'author' AND u.space = $space AND u.id IS NOT NULL AND u.author = $author
  RETURN u
  UNION
  MATCH (u:Episodic {space: $space, id: $id}) WHERE $mode = 'id'
  RETURN u
  UNION
  MATCH (u:Episodic {space: $space})-[:PART_OF]->(:Episode {id: $id, space: $space}) WHERE $mode = 'id'
  RETURN u
}
WITH u LIMIT $batch_size
WITH collect(u) AS units
CALL (units) {
  UNWIND units AS u
  MATCH (d)-[:EVIDENCED_BY]->(u)
  WHERE (d:Semantic OR d:Procedural) AND d.space = $space
  WITH DISTINCT d
  WHERE NOT EXISTS {
    MATCH (d)-[:EVIDENCED_BY]->(x)
    WHERE NOT ($mode = 'all'
               OR ($mode = 'author' AND coalesce(x.author = $author, false))
               OR ($mode = 'id' AND (x.id = $id OR EXISTS { (x)-[:PART_OF]->(:Episode {id: $id, space: $space}) })))
  }
  RETURN collect(d) AS resting
}
WITH units, resting, COLLECT {
  MATCH (d:Semantic)
  WHERE $mode = 'author' AND d.space = $space AND d.id IS NOT NULL AND d.author = $author
    AND NOT EXISTS { (d)-[:EVIDENCED_BY]->() }
  RETURN d
} AS loose
WITH units, resting, loose[0..$batch_size] AS loose
WITH units, resting + [d IN loose WHERE NOT d IN resting] AS only_derived
CALL (only_derived) {
  UNWIND only_derived AS d
  MATCH (m)-[:MERGED_FROM*1..10]->(d)
  WHERE (m:Semantic OR m:Procedural) AND m.space = $space
  RETURN collect(DISTINCT m) AS merged_over
}
WITH units, only_derived + [m IN merged_over WHERE NOT m IN only_derived] AS derived
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
CALL (units, derived) {
  UNWIND units AS u
  MATCH (d)-[:EVIDENCED_BY]->(u)
  WHERE (d:Semantic OR d:Procedural) AND d.space = $space AND NOT d IN derived
  RETURN collect(DISTINCT d.id) AS losing_ids
}
CALL (units) {
  UNWIND units AS u
  MATCH (u)-[:PART_OF]->(e:Episode {space: $space})
  RETURN collect(DISTINCT e.id) AS episode_ids
}
RETURN [u IN units | u.id] AS episodic_ids,
       [d IN derived WHERE d:Semantic | d.id] AS semantic_ids,
       [d IN derived WHERE d:Procedural | d.id] AS procedural_ids,
       tag_ids, subgoal_ids, reopen_ids, reopen_ids + [x IN losing_ids WHERE NOT x IN reopen_ids] AS touched,
       episode_ids
