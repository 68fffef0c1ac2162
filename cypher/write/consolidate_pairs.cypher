// Everything the classifiers need about each candidate pair ($pairs: [{a_id, b_id}]) of active Semantic or
// Procedural nodes in $space: texts, dates, tags, cosine similarity, and whether they share a source episode.
UNWIND $pairs AS pair
OPTIONAL MATCH (sa:Semantic {id: pair.a_id, space: $space})
OPTIONAL MATCH (pa:Procedural {id: pair.a_id, space: $space})
OPTIONAL MATCH (sb:Semantic {id: pair.b_id, space: $space})
OPTIONAL MATCH (pb:Procedural {id: pair.b_id, space: $space})
WITH coalesce(sa, pa) AS a, coalesce(sb, pb) AS b
WHERE a IS NOT NULL AND b IS NOT NULL AND a.status = 'active' AND b.status = 'active'
  AND labels(a) = labels(b)
RETURN [l IN labels(a) WHERE l IN ['Semantic', 'Procedural']][0] AS label,
       {id: a.id, text: a.text, valid_from: a.valid_from, recorded_at: a.recorded_at, author: a.author,
        credibility: a.credibility, tags: COLLECT { MATCH (t:Tag)-[:TAGS]->(a) RETURN t.norm_name }} AS a,
       {id: b.id, text: b.text, valid_from: b.valid_from, recorded_at: b.recorded_at, author: b.author,
        credibility: b.credibility, tags: COLLECT { MATCH (t:Tag)-[:TAGS]->(b) RETURN t.norm_name }} AS b,
       CASE WHEN a.embedding IS NULL OR b.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(a.embedding, b.embedding) END AS score,
       COUNT { MATCH (t:Tag)-[:TAGS]->(a) WHERE (t)-[:TAGS]->(b) } AS shared_tags,
       EXISTS { MATCH (a)-[:EVIDENCED_BY]->(:Episodic)<-[:EVIDENCED_BY]-(b) }
         OR EXISTS { MATCH (a)-[:EVIDENCED_BY]->(:Episodic)-[:PART_OF]->(ep:Episode)
                     WHERE EXISTS { MATCH (b)-[:EVIDENCED_BY]->(:Episodic)-[:PART_OF]->(ep) } } AS shares_episode
