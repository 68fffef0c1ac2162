// Documents by the question's subjects their facts cover: an artefact where the several people, systems or
// topics a question names appear together outranks one that names a single one of them many times. $tags are
// matched Tag nodes, each with the question subject it matched ("Miguel", "Miguel Torres's" and the tag
// "MiguelTorres" are one subject); a document scores, per subject it covers, its best match weight /
// ln(1 + tag degree), so a tag keying many facts ties little, and lists the subjects it covers. Documents
// valid in scope only; the top k also get their cosine to the query. The rows come back as one list of maps,
// best first (one record for the driver to build instead of one per row).
UNWIND $tags AS tw
MATCH (t:Tag {id: tw.id})
WHERE t.space = $space
WITH t, tw.subject AS subject, tw.weight / log(1.0 + COUNT { (t)-[:TAGS]->() }) AS weight
MATCH (t)-[:TAGS]->(:Semantic)-[:EVIDENCED_BY]->(d:Episodic)
WHERE d.space = $space AND d.kind = 'document' AND d.status IN $statuses AND d.valid_from <= $as_of
  AND d.valid_to > $open_after AND d.recorded_at <= $known_at AND d.expired_at > $known_at
  AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(d) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
WITH d, subject, max(weight) AS weight, collect(DISTINCT t.name) AS names
WITH d, sum(weight) AS score, count(subject) AS covered, collect(subject) AS subjects, reduce(acc = [], n IN collect(names) | acc + n) AS matched
ORDER BY score DESC, d.id
LIMIT $k
WITH d, score, covered, subjects, matched, 2 * vector.similarity.cosine(d.embedding, $vector) - 1 AS similarity
ORDER BY score DESC, d.id
RETURN collect({id: d.id, kind: 'episodic', text: d.text, score: score,
                event_at: toString(coalesce(d.event_at, d.valid_from)), author: d.author, status: d.status,
                valid_from: toString(d.valid_from), valid_to: toString(d.valid_to),
                importance: coalesce(d.importance, 1.0), credibility: 1.0, ret: null, uses: null, episode_id: null,
                seq: null, unit_kind: d.kind, covered: covered, subjects: subjects, matched: matched,
                similarity: similarity}) AS rows
