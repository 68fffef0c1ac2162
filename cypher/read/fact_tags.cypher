// The tag names of the given facts in one space: multi-hop retrieval expands a query with these bridge tags.
UNWIND $ids AS fact_id
MATCH (t:Tag {space: $space})-[:TAGS]->(n:Semantic {id: fact_id})
RETURN n.id AS id, collect(t.name) AS tags
