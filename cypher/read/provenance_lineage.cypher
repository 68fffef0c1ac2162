// Version lineage of one node as of a date: the SUPERSEDES / MERGED_FROM edges around it (either direction)
// dated at or before as_of and recorded by known_at, with the versions they connect.
CALL () {
  MATCH (n:Semantic {id: $id}) RETURN n
  UNION
  MATCH (n:Procedural {id: $id}) RETURN n
  UNION
  MATCH (n:Episodic {id: $id}) RETURN n
}
WITH n
WHERE n.space = $space AND n.recorded_at <= $known_at
OPTIONAL MATCH p = (n)-[:SUPERSEDES|MERGED_FROM*1..25]-(m)
WHERE all(x IN nodes(p) WHERE x.space = $space)
  AND all(r IN relationships(p) WHERE r.at <= $as_of AND r.recorded_at <= $known_at)
UNWIND CASE WHEN p IS NULL THEN [null] ELSE relationships(p) END AS r
WITH DISTINCT r
WHERE r IS NOT NULL
WITH r, startNode(r) AS a, endNode(r) AS b
RETURN type(r) AS type, r.at AS at, r.kind AS kind, r.reason AS reason, r.by AS by,
       {id: a.id, text: coalesce(a.text, a.action), status: a.status, valid_from: a.valid_from,
        valid_to: a.valid_to} AS source,
       {id: b.id, text: coalesce(b.text, b.action), status: b.status, valid_from: b.valid_from,
        valid_to: b.valid_to} AS target
ORDER BY at
