// Episodic expansion: every unit of the given episodes valid at as_of, in order, so a session comes back whole.
UNWIND $episode_ids AS episode_id
MATCH (e:Episode {id: episode_id, space: $space})<-[:PART_OF]-(n:Episodic)
WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
RETURN e.id AS episode_id, e.goal AS goal, e.session_id AS session_id, e.kind AS episode_kind,
       n.id AS id, n.seq AS seq, n.kind AS unit_kind,
       coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, ''))) AS text,
       coalesce(n.event_at, n.valid_from) AS event_at, n.author AS author
ORDER BY episode_id, seq, event_at, id
