// Lexical (BM25) leg over Semantic: the full-text index asked for the space's hits (see read/legs/lexical.py),
// then space/status/time filters (`scanned` = index hits seen, so a caller can tell whether a bigger fetch
// could find more).
// Times come back as ISO text, which the Python driver decodes far faster than DateTime values.
CALL db.index.fulltext.queryNodes('semantic_text_in_space', $query, {limit: $fetch}) YIELD node, score
WITH collect({n: node, score: score}) AS found
WITH size(found) AS scanned,
     [f IN found WHERE f.n.space = $space AND f.n.status IN $statuses
        AND f.n.valid_from <= $as_of AND f.n.valid_to > $as_of
        AND f.n.recorded_at <= $known_at AND f.n.expired_at > $known_at][0..$k] AS kept
UNWIND CASE WHEN size(kept) = 0 THEN [{n: null, score: 0.0}] ELSE kept END AS f
WITH scanned, f.n AS n, f.score AS score
RETURN scanned, n.id AS id, 'semantic' AS kind, n.text AS text, score, toString(coalesce(n.event_at, n.valid_from)) AS event_at,
       n.author AS author, n.status AS status, toString(n.valid_from) AS valid_from, toString(n.valid_to) AS valid_to,
       n.importance AS importance, n.credibility AS credibility, null AS ret, null AS uses,
       null AS episode_id, null AS seq, null AS unit_kind,
       2 * vector.similarity.cosine(n.embedding, $vector) - 1 AS similarity
ORDER BY score DESC
