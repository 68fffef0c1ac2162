// The lexical leg's chosen rows (read/legs/lexical.py) with every unit column, in the order given, as one
// list (`rows`): $rows is [{id, kind, score}], the score the leg's own (BM25 over the space's statistics).
// Times come back as ISO text, which the Python driver decodes far faster than DateTime values.
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
WITH place, {id: n.id, kind: kind,
       text: CASE kind WHEN 'episodic'
         THEN coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, '')))
         ELSE n.text END,
       score: score,
       event_at: toString(CASE kind WHEN 'procedural' THEN n.valid_from ELSE coalesce(n.event_at, n.valid_from) END),
       author: n.author, status: n.status, valid_from: toString(n.valid_from), valid_to: toString(n.valid_to),
       importance: coalesce(n.importance, 1.0),
       credibility: CASE kind WHEN 'episodic' THEN 1.0 ELSE n.credibility END,
       ret: CASE kind WHEN 'episodic' THEN n.reward WHEN 'procedural' THEN n.`return` END,
       uses: CASE kind WHEN 'procedural' THEN n.uses END,
       episode_id: episode_id,
       seq: CASE kind WHEN 'episodic' THEN n.seq END,
       unit_kind: CASE kind WHEN 'episodic' THEN n.kind END,
       similarity: 2 * vector.similarity.cosine(n.embedding, $vector) - 1} AS row
ORDER BY place
RETURN collect(row) AS rows
