// A fact's provenance chain: the evidence units (step, turn or document) behind Semantic fact $id — directly or
// through the sources it was merged from — with their author, date and episode, and which versions cite them.
// Parameters: $space (text), $id (text: the Semantic id).
MATCH (f:Semantic {id: $id, space: $space})
MATCH (f)-[:MERGED_FROM*0..10]->(src:Semantic)-[:EVIDENCED_BY]->(e:Episodic)
WHERE src.space = $space AND e.space = $space
WITH f, e, collect(DISTINCT src.id) AS cited_by
OPTIONAL MATCH (e)-[:PART_OF]->(ep:Episode)
RETURN f.id AS fact, f.text AS fact_text, e.id AS evidence,
       coalesce(e.text, e.action + ' -> ' + e.observation, e.caption) AS evidence_text, e.author AS author,
       e.event_at AS event_at, ep.id AS episode, ep.goal AS episode_goal, cited_by
ORDER BY event_at, evidence
