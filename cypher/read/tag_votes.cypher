// Tag votes: weighted matched tags vote over TAGS for facts valid at as_of; facts the dense leg found get
// $dense_bonus; the sum is normalised by the fact's tag count. With $by_rarity a tag's vote is its weight /
// ln(1 + its degree), as in tag_documents: a name tagging every fact of a conversation ("Caroline") votes
// little, a rare topic much (PlugMem's own votes, the `plugmem` variant, count every tag alike). The top k
// also get their cosine to the query. Per posting it reads only what the filter and the sum need: a fact's tag
// count is its TAGS degree (every Tag keying a fact is of the fact's space) and tag names are read for the top
// k only. Times come back as ISO text, which the Python driver decodes far faster than DateTime values; the rows
// come back as one list of maps, best first (one record for the driver to build instead of one per row).
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
ORDER BY score DESC, similarity DESC
RETURN collect({id: n.id, kind: 'semantic', text: n.text, score: score,
                event_at: toString(coalesce(n.event_at, n.valid_from)), author: n.author, status: n.status,
                valid_from: toString(n.valid_from), valid_to: toString(n.valid_to), importance: n.importance,
                credibility: n.credibility, ret: null, uses: null, episode_id: null, seq: null, unit_kind: null,
                votes: votes, bonus: bonus, tag_count: tag_count, matched: matched, similarity: similarity}) AS rows
