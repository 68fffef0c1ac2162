// A version chain: every version linked to node $id (Semantic, Procedural or Episodic) in $space through
// SUPERSEDES or MERGED_FROM, in either direction, oldest first — with who superseded it, when and why. A fact
// closed because the evidence it rests on was superseded shows that evidence's successor (`via_evidence`).
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
WITH v, newer, r,
     COLLECT { MATCH (v)-[:EVIDENCED_BY]->(u:Episodic)<-[s:SUPERSEDES]-(next:Episodic)
               RETURN {evidence: u.id, superseded_by: next.id, at: s.at, recorded_at: s.recorded_at} } AS via_evidence
RETURN v.id AS id, coalesce(v.text, v.caption) AS text, v.status AS status, v.author AS author,
       v.valid_from AS valid_from, v.valid_to AS valid_to,
       coalesce(newer.id, head(via_evidence).superseded_by) AS superseded_by,
       coalesce(r.at, head(via_evidence).at) AS superseded_at, r.by AS superseded_by_who, r.reason AS reason,
       via_evidence
ORDER BY valid_from, id
