// Vector leg over Episodic for servers before 2026.01: over-fetching index kNN, then space/status/time filters.
// Times come back as ISO text, which the Python driver decodes far faster than DateTime values.
CALL db.index.vector.queryNodes('episodic_embedding', $fetch, $vector) YIELD node AS n, score
WITH n, score
WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
WITH n, 2 * score - 1 AS score
ORDER BY score DESC
LIMIT $k
OPTIONAL MATCH (n)-[:PART_OF]->(e:Episode {space: $space})
WITH n, score, head(collect(e.id)) AS episode_id
RETURN n.id AS id, 'episodic' AS kind,
       coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, ''))) AS text, score,
       toString(coalesce(n.event_at, n.valid_from)) AS event_at, n.author AS author, n.status AS status,
       toString(n.valid_from) AS valid_from, toString(n.valid_to) AS valid_to,
       coalesce(n.importance, 1.0) AS importance, 1.0 AS credibility,
       n.reward AS ret, null AS uses, episode_id, n.seq AS seq, n.kind AS unit_kind, score AS similarity
ORDER BY score DESC
