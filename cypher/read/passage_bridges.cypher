// Passage bridges: documents whose subject a seed document names (the entity a multi-hop question passes
// through). A document's subjects are the tags on every one of its facts (a passage's heading lends its tags
// to all of them); a seed names one when a fact of the seed carries it and it is not the seed's own subject.
// $seeds are document ids, best first; a tag keying more than $max_degree facts ties nothing, and `link` is
// 1 / ln(1 + degree) of the rarest tag tying the pair. Only documents valid in scope come back, each with its cosine to the query ($vector).
UNWIND range(0, size($seeds) - 1) AS position
WITH position, $seeds[position] AS seed_id
MATCH (s:Episodic {id: seed_id})<-[:EVIDENCED_BY]-(:Semantic)<-[:TAGS]-(t:Tag)
WHERE s.space = $space AND t.space = $space
WITH position, s, t, count(*) AS seed_tagged
// the seed's own subject (a tag on every fact of a seed with several) leads to more of the seed, not a hop
WHERE seed_tagged = 1 OR seed_tagged < COUNT { (s)<-[:EVIDENCED_BY]-(:Semantic) }
WITH position, s, t, COUNT { (t)-[:TAGS]->() } AS degree
WHERE degree <= $max_degree
MATCH (t)-[:TAGS]->(f:Semantic)-[:EVIDENCED_BY]->(d:Episodic)
WHERE d.space = $space AND d.kind = 'document' AND d <> s AND d.status IN $statuses AND d.valid_from <= $as_of
  AND d.valid_to > $open_after AND d.recorded_at <= $known_at AND d.expired_at > $known_at
  AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(d) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
WITH position, d, t, degree, count(DISTINCT f) AS tagged
WHERE tagged >= COUNT { (d)<-[:EVIDENCED_BY]-(:Semantic) }
WITH position, d, max(1.0 / log(1.0 + degree)) AS link, collect(t.name) AS shared
RETURN position, d.id AS id, 'episodic' AS kind, d.text AS text, link AS score,
       toString(coalesce(d.event_at, d.valid_from)) AS event_at, d.author AS author, d.status AS status,
       toString(d.valid_from) AS valid_from, toString(d.valid_to) AS valid_to,
       coalesce(d.importance, 1.0) AS importance, 1.0 AS credibility, null AS ret, null AS uses,
       null AS episode_id, null AS seq, d.kind AS unit_kind, link, shared[..5] AS shared,
       2 * vector.similarity.cosine(d.embedding, $vector) - 1 AS similarity
ORDER BY position, similarity DESC, id
