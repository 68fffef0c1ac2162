// Provenance of one fact, procedure or evidence unit known at known_at: the node (with its validity as known then:
// closing records recorded by known_at; a fact or procedure also ends with the last of its evidence units), its
// evidence units and their episodes.
CALL () {
  MATCH (n:Semantic {id: $id}) RETURN n
  UNION
  MATCH (n:Procedural {id: $id}) RETURN n
  UNION
  MATCH (n:Episodic {id: $id}) RETURN n
}
WITH n
WHERE n.space = $space AND n.recorded_at <= $known_at
WITH n, reduce(until = $far, at IN COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(n) WHERE r.recorded_at <= $known_at
                                             RETURN r.at } | CASE WHEN at < until THEN at ELSE until END) AS own_end,
     COLLECT { MATCH (n)-[:EVIDENCED_BY]->(u:Episodic)
               WHERE u.recorded_at <= $known_at AND u.expired_at > $known_at
               RETURN reduce(until = $far, at IN COLLECT { MATCH ()-[r:SUPERSEDES|MERGED_FROM]->(u)
                                                           WHERE r.recorded_at <= $known_at RETURN r.at } |
                             CASE WHEN at < until THEN at ELSE until END) } AS unit_ends,
     EXISTS { MATCH ()-[r:MERGED_FROM]->(n) WHERE r.recorded_at <= $known_at } AS merged
WITH n, merged, own_end,
     CASE WHEN size(unit_ends) = 0 THEN own_end
          ELSE reduce(last = unit_ends[0], at IN unit_ends | CASE WHEN at > last THEN at ELSE last END) END AS rest_end
WITH n, merged, CASE WHEN rest_end < own_end THEN rest_end ELSE own_end END AS valid_to_then
OPTIONAL MATCH (n)-[:EVIDENCED_BY]->(ev:Episodic {space: $space})
WHERE ev.recorded_at <= $known_at
WITH n, merged, valid_to_then, CASE WHEN n:Episodic THEN [n] ELSE [] END + collect(ev) AS units
UNWIND CASE WHEN size(units) = 0 THEN [null] ELSE units END AS u
OPTIONAL MATCH (u)-[:PART_OF]->(ep:Episode {space: $space})
WITH n, merged, valid_to_then, u, ep
ORDER BY u.event_at, u.seq
RETURN n.id AS id,
       CASE WHEN n:Semantic THEN 'semantic' WHEN n:Procedural THEN 'procedural' ELSE 'episodic' END AS kind,
       coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, ''))) AS text,
       CASE WHEN merged THEN 'merged' WHEN valid_to_then < $far THEN 'superseded' ELSE 'active' END AS status,
       n.valid_from AS valid_from, valid_to_then AS valid_to, n.recorded_at AS recorded_at,
       n.author AS author, coalesce(n.event_at, n.valid_from) AS event_at,
       [x IN collect(CASE WHEN u IS NULL THEN null ELSE {
          id: u.id, text: coalesce(u.text, trim(coalesce(u.action, '') + ' ' + coalesce(u.observation, ''))),
          event_at: u.event_at, author: u.author, seq: u.seq, source: coalesce(u.source, ep.source),
          episode_id: ep.id, session_id: ep.session_id, episode_goal: ep.goal} END) WHERE x IS NOT NULL] AS evidence
