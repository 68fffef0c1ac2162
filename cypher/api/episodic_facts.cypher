// Facts drawn from each evidence unit (DataLoader batch), valid at $as_of: key = Episodic id.
UNWIND $ids AS id
MATCH (s:Semantic)-[:EVIDENCED_BY]->(e:Episodic {id: id})
WHERE e.space = $space AND s.space = $space
  AND s.valid_from <= $as_of AND s.valid_to > $as_of
  AND s.recorded_at <= $known_at AND s.expired_at > $known_at
  AND s.status IN $statuses
WITH id, s ORDER BY s.valid_from DESC, s.id
RETURN id AS key, collect(s {.*, embedding: null})[..$limit] AS value
