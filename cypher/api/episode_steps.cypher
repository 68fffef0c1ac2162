// The steps of each episode (DataLoader batch): key = Episode id, value = its first $limit units in order.
UNWIND $ids AS id
MATCH (e:Episodic)-[:PART_OF]->(ep:Episode {id: id})
WHERE ep.space = $space AND e.space = $space
  AND e.recorded_at <= $known_at AND e.expired_at > $known_at
WITH id, e ORDER BY e.seq, e.event_at, e.id
RETURN id AS key, collect(e {.*, embedding: null})[..$limit] AS value
