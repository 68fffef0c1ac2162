// Recompute the cached validity (`valid_to`, `status`) of the nodes $ids in $space from the records that still
// exist, and of the facts and procedures resting on any unit among them. The one definition of the cache:
//   valid_to = min(at of every SUPERSEDES / MERGED_FROM record into the node; for a derived Semantic/Procedural
//              with EVIDENCED_BY units, also max(valid_to of those units)), the far future (9999-12-31) if none;
//   status   = 'merged' if a MERGED_FROM record into it exists, else 'superseded' if valid_to is before the far
//              future, else 'active'.
// Evidence units are recomputed first, so derived nodes read their units' fresh valid_to. Ids that name no
// node (erased) are ignored. Parameters: $space (text), $ids (list of node ids).
CALL () {
  UNWIND $ids AS id
  MATCH (n:Episodic {id: id, space: $space})
  WITH DISTINCT n
  WITH n, COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(n) RETURN r.at } AS closings,
       EXISTS { MATCH ()-[:MERGED_FROM]->(n) } AS merged
  WITH n, merged,
       reduce(e = datetime('9999-12-31T00:00:00Z'), at IN closings | CASE WHEN at < e THEN at ELSE e END) AS ends
  SET n.valid_to = ends,
      n.status = CASE WHEN merged THEN 'merged' WHEN ends < datetime('9999-12-31T00:00:00Z') THEN 'superseded'
                      ELSE 'active' END
}
CALL () {
  UNWIND $ids AS id
  CALL (id) {
    MATCH (n:Semantic {id: id, space: $space})
    RETURN n
    UNION
    MATCH (n:Procedural {id: id, space: $space})
    RETURN n
    UNION
    MATCH (n)-[:EVIDENCED_BY]->(:Episodic {id: id, space: $space})
    WHERE (n:Semantic OR n:Procedural) AND n.space = $space
    RETURN n
  }
  WITH DISTINCT n
  WITH n, COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(n) RETURN r.at } AS closings,
       EXISTS { MATCH ()-[:MERGED_FROM]->(n) } AS merged,
       COLLECT { MATCH (n)-[:EVIDENCED_BY]->(u:Episodic) RETURN u.valid_to } AS unit_ends
  WITH n, merged,
       reduce(e = datetime('9999-12-31T00:00:00Z'), at IN closings | CASE WHEN at < e THEN at ELSE e END) AS closed,
       CASE WHEN size(unit_ends) = 0 THEN null
            ELSE reduce(l = unit_ends[0], t IN unit_ends | CASE WHEN t > l THEN t ELSE l END) END AS held
  WITH n, merged, CASE WHEN held IS NOT NULL AND held < closed THEN held ELSE closed END AS ends
  SET n.valid_to = ends,
      n.status = CASE WHEN merged THEN 'merged' WHEN ends < datetime('9999-12-31T00:00:00Z') THEN 'superseded'
                      ELSE 'active' END
}
RETURN size($ids) AS asked
