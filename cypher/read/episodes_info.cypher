// Episodes by id in one space: what a session / document-batch ranking shows for each.
UNWIND $episode_ids AS episode_id
MATCH (e:Episode {id: episode_id, space: $space})
RETURN e.id AS id, e.kind AS kind, e.goal AS goal, e.session_id AS session_id, e.source AS source,
       e.started_at AS started_at, e.ended_at AS ended_at
