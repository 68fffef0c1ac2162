// Consolidation merges and their sources: each merged node in a space with the sources it folded together
// (their text, author and validity), newest merge first.
// Parameters: $space (text). The space's nodes are found by its (space, status) indexes, one label at a time,
// not by scanning every space's nodes.
CALL () {
  MATCH (m:Semantic) WHERE m.space = $space AND m.status IS NOT NULL RETURN m
  UNION
  MATCH (m:Procedural) WHERE m.space = $space AND m.status IS NOT NULL RETURN m
}
MATCH (m)-[r:MERGED_FROM]->(src)
WITH m, r, src
ORDER BY src.valid_from, src.id
WITH m, min(r.at) AS at, max(r.recorded_at) AS recorded_at,
     collect({id: src.id, text: src.text, author: src.author, valid_from: src.valid_from,
              valid_to: src.valid_to, status: src.status}) AS sources
RETURN m.id AS merged, m.text AS text, m.valid_from AS valid_from, m.credibility AS credibility, at,
       recorded_at, sources
ORDER BY recorded_at DESC, merged
