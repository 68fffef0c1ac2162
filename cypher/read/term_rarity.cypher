// How many of $space's evidence units there are and how many hold each term ($terms: {term, query}, the query
// a `*_text_in_space` phrase query), each counted up to $cap: the rarity weights of version choice by slot.
CYPHER 25
CALL () {
  MATCH (n:Episodic) WHERE n.space = $space AND n.id IS NOT NULL
  WITH n LIMIT $cap
  RETURN count(n) AS units
}
UNWIND $terms AS term
CALL (term) {
  CALL db.index.fulltext.queryNodes('episodic_text_in_space', term.query, {limit: $cap}) YIELD node
  WITH node WHERE node.space = $space
  RETURN count(node) AS df
}
RETURN units, term.term AS term, df
