// Exact tag matches: the space's Tag nodes whose normal form equals one of the query's tags.
UNWIND $norms AS norm
MATCH (t:Tag {space: $space, norm_name: norm})
RETURN t.id AS id, t.name AS name, norm AS query_tag, 1.0 AS similarity
