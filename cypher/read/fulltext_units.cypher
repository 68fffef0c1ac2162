// Lexical (BM25) leg over every kind in $kinds (semantic, episodic, procedural) in one round trip: each kind's
// full-text index asked for the space's hits ($queries.<kind>, see read/legs/lexical.py), then space, status
// and time filters, the best $k of each kind kept. `scanned` = the kind's index hits seen, so a caller can
// tell whether a bigger fetch could find more; a kind with no row left returns one row with a null id.
// Times come back as ISO text, which the Python driver decodes far faster than DateTime values.
CYPHER 25
UNWIND $kinds AS kind
CALL (kind) {
  WHEN kind = 'semantic' THEN {
    CALL db.index.fulltext.queryNodes('semantic_text_in_space', $queries.semantic, {limit: $fetch})
      YIELD node, score
    RETURN node, score
  }
  WHEN kind = 'episodic' THEN {
    CALL db.index.fulltext.queryNodes('episodic_text_in_space', $queries.episodic, {limit: $fetch})
      YIELD node, score
    RETURN node, score
  }
  WHEN kind = 'procedural' THEN {
    CALL db.index.fulltext.queryNodes('procedural_text_in_space', $queries.procedural, {limit: $fetch})
      YIELD node, score
    RETURN node, score
  }
}
WITH kind, collect({n: node, score: score}) AS found
CALL (found) {
  UNWIND found AS f
  WITH f.n AS n, f.score AS score
  WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
    AND n.recorded_at <= $known_at AND n.expired_at > $known_at
    AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (n)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (n)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
  RETURN collect({n: n, score: score})[0..$k] AS kept
}
WITH kind, size(found) AS scanned, kept
UNWIND CASE WHEN size(kept) = 0 THEN [{n: null, score: 0.0}] ELSE kept END AS f
WITH kind, scanned, f.n AS n, f.score AS score
OPTIONAL MATCH (n)-[:PART_OF]->(e:Episode {space: $space})
WITH kind, scanned, n, score, head(collect(e.id)) AS episode_id
RETURN scanned, n.id AS id, kind,
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
ORDER BY kind, score DESC
