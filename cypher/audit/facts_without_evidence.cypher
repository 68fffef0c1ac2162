// Facts with no evidence: active Semantic facts in a space with no EVIDENCED_BY edge, neither directly nor
// through the sources they were merged from — candidates for review.
// Parameters: $space (text).
MATCH (f:Semantic {space: $space, status: 'active'})
WHERE NOT EXISTS { MATCH (f)-[:MERGED_FROM*0..10]->(:Semantic)-[:EVIDENCED_BY]->(:Episodic) }
RETURN f.id AS id, f.text AS text, f.author AS author, f.valid_from AS valid_from, f.recorded_at AS recorded_at
ORDER BY recorded_at, id
