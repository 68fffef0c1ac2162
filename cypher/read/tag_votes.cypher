// Tag votes: weighted matched tags vote over TAGS for facts valid at as_of; facts the dense leg found get
// $dense_bonus; the sum is normalised by the fact's tag count. With $by_rarity a tag's vote is its weight /
// ln(1 + its degree), as in tag_documents: a name tagging every fact of a conversation ("Caroline") votes
// little, a rare topic much (PlugMem's own votes, the `plugmem` variant, count every tag alike). The top k
// also get their cosine to the query. Per posting it reads only what the filter and the sum need: a fact's tag
// count is its TAGS degree (every Tag keying a fact is of the fact's space) and tag names are read for the top
// k only. Times come back as ISO text, which the Python driver decodes far faster than DateTime values.
UNWIND $tags AS tw
MATCH (t:Tag {id: tw.id})
WHERE t.space = $space
WITH t, CASE WHEN $by_rarity THEN tw.weight / log(1.0 + COUNT { (t)-[:TAGS]->() }) ELSE tw.weight END AS weight
MATCH (t)-[:TAGS]->(n:Semantic)
WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
  AND n.recorded_at <= $known_at AND n.expired_at > $known_at
  AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (n)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (n)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
WITH n, sum(weight) AS votes, collect(DISTINCT t) AS voters
WITH n, voters, votes, CASE WHEN n.id IN $dense_ids THEN $dense_bonus ELSE 0.0 END AS bonus
WITH n, voters, votes + bonus AS votes, bonus, COUNT { (n)<-[:TAGS]-() } AS tag_count
WITH n, voters, votes, bonus, tag_count,
     votes / toFloat(CASE WHEN tag_count > 0 THEN tag_count ELSE 1 END) AS score
ORDER BY score DESC, n.id
LIMIT $k
WITH n, COLLECT { UNWIND voters AS voter RETURN DISTINCT voter.name } AS matched, votes, bonus, tag_count, score,
     2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS similarity
RETURN n.id AS id, 'semantic' AS kind, n.text AS text, score, toString(coalesce(n.event_at, n.valid_from)) AS event_at,
       n.author AS author, n.status AS status, toString(n.valid_from) AS valid_from, toString(n.valid_to) AS valid_to,
       n.importance AS importance, n.credibility AS credibility, null AS ret, null AS uses,
       null AS episode_id, null AS seq, null AS unit_kind,
       votes, bonus, tag_count, matched, similarity
ORDER BY score DESC, similarity DESC
