// Supersession and merge links of each semantic node dated by $as_of, both directions (DataLoader batch): key = its id.
UNWIND $ids AS id
MATCH (n:Semantic {id: id})-[r:SUPERSEDES|MERGED_FROM]-(m:Semantic)
WHERE n.space = $space AND m.space = $space AND r.at <= $as_of AND r.recorded_at <= $known_at
WITH id, n, r, m ORDER BY r.at DESC, m.id
RETURN id AS key, collect({
  type: type(r), outgoing: startNode(r) = n, at: r.at, recorded_at: r.recorded_at,
  kind: r.kind, reason: r.reason, by: r.by, node: m {.*, embedding: null}
}) AS value
