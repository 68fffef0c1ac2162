// Recompute the cached validity of the given versions in $space ($ids: Semantic, Procedural or Episodic ids)
// and of the facts and procedures resting on the given evidence units, from the records that exist now:
// valid_to = the earliest `at` of the SUPERSEDES / MERGED_FROM records into the node (9999-12-31 without one);
// a fact or procedure with evidence also ends when the last of its evidence units does; status = 'merged' when
// a merge record exists, else 'superseded' when valid_to is set, else 'active'. Idempotent: with a correct
// cache it changes nothing. Units first, so the derived nodes read their units' new validity.
CALL () {
  UNWIND $ids AS id
  OPTIONAL MATCH (s:Semantic {space: $space, id: id})
  OPTIONAL MATCH (p:Procedural {space: $space, id: id})
  OPTIONAL MATCH (e:Episodic {space: $space, id: id})
  WITH coalesce(s, p, e) AS n
  WHERE n IS NOT NULL
  RETURN collect(DISTINCT n) AS given
}
CALL (given) {
  UNWIND given AS u
  WITH u WHERE u:Episodic
  WITH u, COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(u) RETURN r.at } AS closings,
       EXISTS { MATCH ()-[:MERGED_FROM]->(u) } AS merged
  WITH u, merged, reduce(soonest = $far, at IN closings | CASE WHEN at < soonest THEN at ELSE soonest END) AS until
  SET u.valid_to = until,
      u.status = CASE WHEN merged THEN 'merged' WHEN until < $far THEN 'superseded' ELSE 'active' END
}
CALL (given) {
  UNWIND given AS g
  OPTIONAL MATCH (d)-[:EVIDENCED_BY]->(g)
  WHERE g:Episodic AND (d:Semantic OR d:Procedural) AND d.space = $space
  WITH collect(DISTINCT d) + [x IN collect(DISTINCT g) WHERE NOT x:Episodic] AS derived
  UNWIND derived AS d
  WITH DISTINCT d
  WITH d, COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(d) RETURN r.at } AS closings,
       COLLECT { MATCH (d)-[:EVIDENCED_BY]->(u:Episodic) RETURN u.valid_to } AS unit_ends,
       EXISTS { MATCH ()-[:MERGED_FROM]->(d) } AS merged
  WITH d, merged, reduce(soonest = $far, at IN closings | CASE WHEN at < soonest THEN at ELSE soonest END) AS own_end,
       CASE WHEN size(unit_ends) = 0 THEN $far
            ELSE reduce(last = unit_ends[0], at IN unit_ends | CASE WHEN at > last THEN at ELSE last END) END AS rest_end
  WITH d, merged, CASE WHEN rest_end < own_end THEN rest_end ELSE own_end END AS until
  SET d.valid_to = until,
      d.status = CASE WHEN merged THEN 'merged' WHEN until < $far THEN 'superseded' ELSE 'active' END
}
RETURN size(given) AS revalidated
