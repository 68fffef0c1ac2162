// Fold each restatement group ($merges: [{id, sources: [ids], credibility}]) of active Procedural insights in
// $space into one new Procedural: the latest source's text and goal, valid from the LATEST source's start, the
// best return and summed uses, the union of evidence and subgoal routes, and MERGED_FROM {at, recorded_at}
// edges to its sources, which become 'merged' with validity closed at that start. Nothing is deleted. Idempotent.
// Its importance weight is the sources' highest; write/importance_refresh then counts its merged evidence.
UNWIND $merges AS m
MATCH (src:Procedural)
WHERE src.id IN m.sources AND src.space = $space
WITH m, src
ORDER BY src.valid_from DESC, src.recorded_at DESC, src.id
WITH m, collect(src) AS sources
WHERE size(sources) = size(m.sources)
WITH m, sources, sources[0] AS latest
MERGE (n:Procedural {space: $space, id: m.id})
  ON CREATE SET n.space = $space, n.text = latest.text, n.caption = coalesce(latest.caption, left(latest.text, 80)),
                n.goal = latest.goal, n.embedding = latest.embedding,
                n.valid_from = latest.valid_from, n.valid_to = $far, n.recorded_at = $now, n.expired_at = $far,
                n.status = 'active', n.credibility = m.credibility,
                n.`return` = reduce(best = -1.0, s IN sources |
                                    CASE WHEN coalesce(s.`return`, 0.0) > best THEN coalesce(s.`return`, 0.0)
                                         ELSE best END),
                n.uses = reduce(total = 0, s IN sources | total + coalesce(s.uses, 0)),
                n.importance_weight = reduce(best = 0.0, s IN sources |
                                 CASE WHEN coalesce(s.importance_weight, 1.0) > best
                                      THEN coalesce(s.importance_weight, 1.0) ELSE best END)
WITH n, latest, sources
UNWIND sources AS src
MERGE (n)-[r:MERGED_FROM]->(src)
  ON CREATE SET r.at = latest.valid_from, r.recorded_at = $now
SET src.status = 'merged',
    src.valid_to = CASE WHEN latest.valid_from < src.valid_to THEN latest.valid_from ELSE src.valid_to END
WITH n, src
CALL (n, src) {
  MATCH (g:Subgoal)-[:HAS_PROCEDURE]->(src)
  MERGE (g)-[:HAS_PROCEDURE]->(n)
}
CALL (n, src) {
  MATCH (src)-[:EVIDENCED_BY]->(e:Episodic)
  MERGE (n)-[:EVIDENCED_BY]->(e)
}
RETURN count(DISTINCT n) AS merged_nodes, count(src) AS sources
