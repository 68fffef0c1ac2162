// Tags of each fact (DataLoader batch): key = fact id, value = its tags by normal name.
UNWIND $ids AS id
MATCH (t:Tag)-[:TAGS]->(s:Semantic {id: id})
WHERE s.space = $space AND t.space = $space
  AND t.recorded_at <= $known_at AND t.expired_at > $known_at
WITH id, t ORDER BY t.norm_name
RETURN id AS key, collect(t {.*, embedding: null}) AS value
