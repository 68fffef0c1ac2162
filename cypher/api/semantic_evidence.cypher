// Evidence of each semantic node (DataLoader batch): key = its id, value = the Episodic units it cites, in time order.
UNWIND $ids AS id
MATCH (s:Semantic {id: id})-[:EVIDENCED_BY]->(e:Episodic)
WHERE s.space = $space AND e.space = $space
  AND e.recorded_at <= $known_at AND e.expired_at > $known_at
WITH id, e ORDER BY e.event_at, e.seq, e.id
RETURN id AS key, collect(e {.*, embedding: null}) AS value
