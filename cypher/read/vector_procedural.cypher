// Vector leg over Procedural (procedures): kNN in the native index, filtered inside it by space, status and valid time.
CYPHER 25
MATCH (n:Procedural)
  SEARCH n IN (VECTOR INDEX procedural_embedding FOR $vector
    WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $as_of
    LIMIT $fetch)
  SCORE AS score
WITH n, score
WHERE n.recorded_at <= $known_at AND n.expired_at > $known_at
WITH n, 2 * score - 1 AS score
ORDER BY score DESC
LIMIT $k
RETURN n.id AS id, 'procedural' AS kind, n.text AS text, score, n.valid_from AS event_at,
       null AS author, n.status AS status, n.valid_from AS valid_from, n.valid_to AS valid_to,
       n.importance AS importance, n.credibility AS credibility, n.`return` AS ret, n.uses AS uses,
       null AS episode_id, null AS seq, null AS unit_kind, score AS similarity
ORDER BY score DESC
