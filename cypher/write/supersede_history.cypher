// The whole version chain around node $id in $space: every version reachable through SUPERSEDES or
// MERGED_FROM in either direction, oldest first, each with the links that leave it (to older versions).
OPTIONAL MATCH (s:Semantic {id: $id, space: $space})
OPTIONAL MATCH (p:Procedural {id: $id, space: $space})
OPTIONAL MATCH (e:Episodic {id: $id, space: $space})
WITH coalesce(s, p, e) AS start
WHERE start IS NOT NULL
MATCH (start)-[:SUPERSEDES|MERGED_FROM*0..100]-(v)
WHERE v.space = $space
WITH DISTINCT v
OPTIONAL MATCH (v)-[r:SUPERSEDES|MERGED_FROM]->(older)
WHERE older.space = $space
WITH v, collect(CASE WHEN r IS NULL THEN null ELSE {
  type: type(r), newer_id: v.id, older_id: older.id, at: r.at, recorded_at: r.recorded_at,
  kind: r.kind, reason: r.reason, by: r.by
} END) AS links
RETURN v.id AS id, [l IN labels(v) WHERE l IN ['Semantic', 'Procedural', 'Episodic']][0] AS label,
       coalesce(v.text, v.caption) AS text, v.status AS status, v.author AS author,
       v.valid_from AS valid_from, v.valid_to AS valid_to, v.recorded_at AS recorded_at,
       v.expired_at AS expired_at, v.credibility AS credibility, links
ORDER BY valid_from, recorded_at, id
