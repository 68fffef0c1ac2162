// Provenance of one fact, procedure or evidence unit known at known_at: the node, its evidence units and their episodes.
CALL () {
  MATCH (n:Semantic {id: $id}) RETURN n
  UNION
  MATCH (n:Procedural {id: $id}) RETURN n
  UNION
  MATCH (n:Episodic {id: $id}) RETURN n
}
WITH n
WHERE n.space = $space AND n.recorded_at <= $known_at
OPTIONAL MATCH (n)-[:EVIDENCED_BY]->(ev:Episodic {space: $space})
WHERE ev.recorded_at <= $known_at
WITH n, CASE WHEN n:Episodic THEN [n] ELSE [] END + collect(ev) AS units
UNWIND CASE WHEN size(units) = 0 THEN [null] ELSE units END AS u
OPTIONAL MATCH (u)-[:PART_OF]->(ep:Episode {space: $space})
WITH n, u, ep
ORDER BY u.event_at, u.seq
RETURN n.id AS id,
       CASE WHEN n:Semantic THEN 'semantic' WHEN n:Procedural THEN 'procedural' ELSE 'episodic' END AS kind,
       coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, ''))) AS text,
       n.status AS status, n.valid_from AS valid_from, n.valid_to AS valid_to, n.recorded_at AS recorded_at,
       n.author AS author, coalesce(n.event_at, n.valid_from) AS event_at,
       [x IN collect(CASE WHEN u IS NULL THEN null ELSE {
          id: u.id, text: coalesce(u.text, trim(coalesce(u.action, '') + ' ' + coalesce(u.observation, ''))),
          event_at: u.event_at, author: u.author, seq: u.seq, source: coalesce(u.source, ep.source),
          episode_id: ep.id, session_id: ep.session_id, episode_goal: ep.goal} END) WHERE x IS NOT NULL] AS evidence
