// The lexical leg's chosen rows (read/legs/lexical.py) with every unit column, in the order given: $rows is
// [{id, kind, score}], the score the leg's own (BM25 over the space's statistics). Times come back as ISO
// text, which the Python driver decodes far faster than DateTime values.
CYPHER 25
UNWIND range(0, size($rows) - 1) AS place
WITH place, $rows[place] AS row
CALL (row) {
  WHEN row.kind = 'semantic' THEN { MATCH (n:Semantic {id: row.id, space: $space}) RETURN n }
  WHEN row.kind = 'episodic' THEN { MATCH (n:Episodic {id: row.id, space: $space}) RETURN n }
  WHEN row.kind = 'procedural' THEN { MATCH (n:Procedural {id: row.id, space: $space}) RETURN n }
}
WITH place, row.kind AS kind, row.score AS score, n
OPTIONAL MATCH (n)-[:PART_OF]->(e:Episode {space: $space})
WITH place, kind, n, score, head(collect(e.id)) AS episode_id
RETURN n.id AS id, kind,
       CASE kind WHEN 'episodic'
         THEN coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, '')))
         ELSE n.text END AS text,
       score,
       toString(CASE kind WHEN 'procedural' THEN n.valid_from ELSE coalesce(n.event_at, n.valid_from) END)
         AS event_at,
       n.author AS author, n.status AS status, toString(n.valid_from) AS valid_from,
       toString(n.valid_to) AS valid_to,
       coalesce(n.importance, 1.0) AS importance,
       CASE kind WHEN 'episodic' THEN 1.0 ELSE n.credibility END AS credibility,
       CASE kind WHEN 'episodic' THEN n.reward WHEN 'procedural' THEN n.`return` END AS ret,
       CASE kind WHEN 'procedural' THEN n.uses END AS uses,
       episode_id,
       CASE kind WHEN 'episodic' THEN n.seq END AS seq,
       CASE kind WHEN 'episodic' THEN n.kind END AS unit_kind,
       2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS similarity
ORDER BY place
