// Vector leg over Semantic for servers before 2026.01: over-fetching index kNN, then space/status/time filters.
// Times come back as ISO text, which the Python driver decodes far faster than DateTime values.
CALL db.index.vector.queryNodes('semantic_embedding', $fetch, $vector) YIELD node AS n, score
WITH n, score
WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (n)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (n)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
WITH n, 2 * score - 1 AS score
ORDER BY score DESC
LIMIT $k
RETURN n.id AS id, 'semantic' AS kind, n.text AS text, score, toString(coalesce(n.event_at, n.valid_from)) AS event_at,
       n.author AS author, n.status AS status, toString(n.valid_from) AS valid_from, toString(n.valid_to) AS valid_to,
       n.importance AS importance, n.credibility AS credibility, null AS ret, null AS uses,
       null AS episode_id, null AS seq, null AS unit_kind, score AS similarity
ORDER BY score DESC
