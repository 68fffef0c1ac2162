// The space's own BM25 statistics for the lexical leg (read/legs/lexical.py), so a space's ranking never
// depends on what other spaces hold: per kind in $kinds, how many of $space's units there are (`units`)
// and how many hold each query term (`df`, $terms.<kind>: [{term, query}], the query a `*_text_in_space`
// one), each counted up to $cap; one row per kind.
// (`n.id IS NOT NULL` lets the planner count by the (space, id) index instead of scanning the label.)
CYPHER 25
UNWIND $kinds AS kind
CALL (kind) {
  WHEN kind = 'semantic' THEN {
    MATCH (n:Semantic) WHERE n.space = $space AND n.id IS NOT NULL WITH n LIMIT $cap RETURN count(n) AS units
  }
  WHEN kind = 'episodic' THEN {
    MATCH (n:Episodic) WHERE n.space = $space AND n.id IS NOT NULL WITH n LIMIT $cap RETURN count(n) AS units
  }
  WHEN kind = 'procedural' THEN {
    MATCH (n:Procedural) WHERE n.space = $space AND n.id IS NOT NULL WITH n LIMIT $cap RETURN count(n) AS units
  }
}
UNWIND CASE WHEN size($terms[kind]) = 0 THEN [null] ELSE $terms[kind] END AS term
CALL (kind, term) {
  WHEN term IS NULL THEN { RETURN 0 AS df }
  WHEN kind = 'semantic' THEN {
    CALL db.index.fulltext.queryNodes('semantic_text_in_space', term.query, {limit: $cap}) YIELD node
    WITH node WHERE node.space = $space
    RETURN count(node) AS df
  }
  WHEN kind = 'episodic' THEN {
    CALL db.index.fulltext.queryNodes('episodic_text_in_space', term.query, {limit: $cap}) YIELD node
    WITH node WHERE node.space = $space
    RETURN count(node) AS df
  }
  WHEN kind = 'procedural' THEN {
    CALL db.index.fulltext.queryNodes('procedural_text_in_space', term.query, {limit: $cap}) YIELD node
    WITH node WHERE node.space = $space
    RETURN count(node) AS df
  }
}
RETURN kind, units, [c IN collect({term: term.term, df: df}) WHERE c.term IS NOT NULL] AS counts
