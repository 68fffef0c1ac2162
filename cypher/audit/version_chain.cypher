// A version chain: every version linked to node $id (Semantic, Procedural or Episodic) in $space through
// SUPERSEDES or MERGED_FROM, in either direction, oldest first — with who superseded it, when and why.
// Parameters: $space (text), $id (text).
OPTIONAL MATCH (s:Semantic {id: $id, space: $space})
OPTIONAL MATCH (p:Procedural {id: $id, space: $space})
OPTIONAL MATCH (e:Episodic {id: $id, space: $space})
WITH coalesce(s, p, e) AS start
WHERE start IS NOT NULL
MATCH (start)-[:SUPERSEDES|MERGED_FROM*0..100]-(v)
WHERE v.space = $space
WITH DISTINCT v
OPTIONAL MATCH (newer)-[r:SUPERSEDES]->(v)
RETURN v.id AS id, coalesce(v.text, v.caption) AS text, v.status AS status, v.author AS author,
       v.valid_from AS valid_from, v.valid_to AS valid_to,
       newer.id AS superseded_by, r.at AS superseded_at, r.by AS superseded_by_who, r.reason AS reason
ORDER BY valid_from, id
