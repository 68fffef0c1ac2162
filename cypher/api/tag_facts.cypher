// Facts carrying each tag (DataLoader batch), valid at $as_of, newest first: key = Tag id.
UNWIND $ids AS id
MATCH (t:Tag {id: id})-[:TAGS]->(s:Semantic)
WHERE t.space = $space AND s.space = $space
  AND s.valid_from <= $as_of AND s.valid_to > $open_after
  AND s.recorded_at <= $known_at AND s.expired_at > $known_at
  AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(s) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (s)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (s)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
  AND s.status IN $statuses
WITH id, s ORDER BY s.valid_from DESC, s.id
RETURN id AS key, collect(s {.*, embedding: null})[..$limit] AS value
