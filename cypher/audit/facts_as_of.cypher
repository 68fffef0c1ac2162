// Facts that held in a space on a date, as the service knew them at a given time (bi-temporal).
// Parameters: $space (text); $as_of (datetime, valid time, e.g. datetime('2024-05-01T00:00:00Z'));
// $known_at (datetime, record time; datetime() for "as we know it now"); $tag (text or null: the norm_name of
// a tag to narrow to, null for every fact). A supersession or merge counts only once recorded (its recorded_at <=
// $known_at), so "what did we believe held on D, as of K" is answered as it would have been at K; a fact
// resting on evidence holds while one of its evidence units does (graphmem/read/asof.py has the definition).
// Dates given as text (Browser's `:params {...}` map form) would compare as null and match nothing: refused.
WITH CASE WHEN $as_of IS :: ZONED DATETIME AND $known_at IS :: ZONED DATETIME THEN true
          ELSE datetime('as_of and known_at must be datetimes (:param as_of => datetime(...)), not the text '
                        + toString($as_of) + ', ' + toString($known_at)) END AS typed
MATCH (n:Semantic {space: $space})
WHERE n.valid_from <= $as_of AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($tag IS NULL OR EXISTS { MATCH (t:Tag {space: $space, norm_name: $tag})-[:TAGS]->(n) })
// its own closing records known then, and (a fact rests on its evidence) the end of its last evidence unit then
WITH n, reduce(until = datetime('9999-12-31T00:00:00Z'),
               at IN COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(n) WHERE r.recorded_at <= $known_at RETURN r.at } |
               CASE WHEN at < until THEN at ELSE until END) AS own_end,
     COLLECT { MATCH (n)-[:EVIDENCED_BY]->(u:Episodic)
               WHERE u.recorded_at <= $known_at AND u.expired_at > $known_at
               RETURN reduce(until = datetime('9999-12-31T00:00:00Z'),
                             at IN COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(u) WHERE r.recorded_at <= $known_at
                                             RETURN r.at } |
                             CASE WHEN at < until THEN at ELSE until END) } AS unit_ends
WITH n, own_end,
     CASE WHEN size(unit_ends) = 0 THEN own_end
          ELSE reduce(last = unit_ends[0], at IN unit_ends | CASE WHEN at > last THEN at ELSE last END) END AS rest_end
WITH n, CASE WHEN rest_end < own_end THEN rest_end ELSE own_end END AS valid_to_then
WHERE valid_to_then > $as_of
RETURN n.id AS id, n.text AS text, n.author AS author,
       CASE WHEN valid_to_then < datetime('9999-12-31T00:00:00Z') THEN 'superseded' ELSE 'active' END AS status,
       n.valid_from AS valid_from, valid_to_then AS valid_to
ORDER BY n.valid_from DESC, n.id
