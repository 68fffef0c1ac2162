// Lexical (BM25) leg over every kind in $kinds (semantic, episodic, procedural) in one round trip: each kind's
// full-text index asked for the space's hits ($queries.<kind>, see read/legs/lexical.py), then space, status
// and time filters, the first $k of each kind kept by Lucene's order: id, text and Lucene's score, for the
// leg to score with the space's own statistics (the chosen rows' columns come from read/lexical_units).
// One row per kind, its hits as lists (ids, texts, scores); `scanned` = the kind's index hits seen, so a
// caller can tell whether a bigger fetch could find more.
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
RETURN kind, scanned, [f IN kept | f.n.id] AS ids,
       [f IN kept | CASE kind WHEN 'episodic'
         THEN coalesce(f.n.text, trim(coalesce(f.n.action, '') + ' ' + coalesce(f.n.observation, '')))
         ELSE f.n.text END] AS texts,
       [f IN kept | f.score] AS scores
