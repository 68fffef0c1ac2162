// Related artefacts of the top hits: what a complete organisational answer needs besides the hit itself.
// Each seed ($seeds: fact, procedure or document ids, best first) resolves to the documents it rests on;
// the first $max_seeds distinct documents are expanded. A seed document's related artefacts are
//   - its versions: documents it SUPERSEDES or is superseded by, as far as $as_of / $known_at saw them;
//   - its thread: other documents dated within $window_days of it (dated by their writer: an upload without
//     dates carries its ingest time, `dated: false`, and has no thread), scored by the cosine of the two texts'
//     embeddings plus $tag_weight for each uncommon tag their facts share (a tag keying more than
//     $max_tag_degree facts is too common to tie two artefacts together; a shared tag weighs
//     1 / ln(1 + degree)); kept at >= $min_score, the best $per_seed per seed.
// Thread candidates come from the (space, event_at) range index, never a scan of the space; everything
// returned is valid in scope, so an as-of answer never cites a later artefact. One row per related
// artefact, or one with a null id for a seed document with none.
UNWIND range(0, size($seeds) - 1) AS position
WITH position, $seeds[position] AS seed_id
CALL (seed_id) {
  MATCH (d:Episodic {id: seed_id}) WHERE d.space = $space AND d.kind = 'document'
  RETURN d
  UNION
  MATCH (:Semantic {id: seed_id})-[:EVIDENCED_BY]->(d:Episodic) WHERE d.space = $space AND d.kind = 'document'
  RETURN d
  UNION
  MATCH (:Procedural {id: seed_id})-[:EVIDENCED_BY]->(d:Episodic) WHERE d.space = $space AND d.kind = 'document'
  RETURN d
}
WITH d, min(position) AS position
ORDER BY position
LIMIT $max_seeds
OPTIONAL CALL (d) {
  MATCH (d)-[s:SUPERSEDES]-(v:Episodic)
  WHERE v.space = $space AND v.kind = 'document' AND s.at <= $as_of AND s.recorded_at <= $known_at
    AND v.valid_from <= $as_of AND v.recorded_at <= $known_at AND v.expired_at > $known_at
  RETURN v AS r, CASE WHEN startNode(s) = d THEN 'supersedes' ELSE 'superseded_by' END AS relation,
         1.0 AS score, [] AS shared
  UNION
  CALL (d) {
    OPTIONAL MATCH (d)<-[:EVIDENCED_BY]-(:Semantic)<-[:TAGS]-(t:Tag)
    WITH DISTINCT t WHERE t IS NOT NULL AND COUNT { (t)-[:TAGS]->() } <= $max_tag_degree
    RETURN collect(t) AS seed_tags
  }
  WITH d, seed_tags, coalesce(d.event_at, d.valid_from) AS at
  WHERE d.dated IS NULL OR d.dated
  MATCH (r:Episodic)
  WHERE r.space = $space AND r.event_at >= at - duration({days: $window_days})
    AND r.event_at <= at + duration({days: $window_days})
    AND r.kind = 'document' AND r <> d AND (r.dated IS NULL OR r.dated)
    AND r.status IN $statuses AND r.valid_from <= $as_of AND r.valid_to > $open_after
    AND r.recorded_at <= $known_at AND r.expired_at > $known_at
    AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(r) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
  CALL (r, seed_tags) {
    OPTIONAL MATCH (r)<-[:EVIDENCED_BY]-(:Semantic)<-[:TAGS]-(t:Tag)
    WITH DISTINCT t WHERE t IN seed_tags
    WITH t, COUNT { (t)-[:TAGS]->() } AS degree
    RETURN sum(1.0 / log(1.0 + degree)) AS tag_score, collect(t.name) AS shared
  }
  WITH r, 2 * vector.similarity.cosine(d.embedding, r.embedding) - 1 + $tag_weight * tag_score AS score, shared
  WHERE score >= $min_score
  RETURN r, 'thread' AS relation, score, shared
}
WITH position, d, r, relation, score, shared
ORDER BY position, CASE WHEN relation = 'thread' THEN 1 ELSE 0 END, score DESC, r.id
WITH position, d,
     collect(CASE WHEN r IS NOT NULL THEN {r: r, relation: relation, score: score, shared: shared} END) AS related
// a seed with nothing related still comes back (id null), so callers know which document each seed rests on
UNWIND CASE WHEN size(related) = 0 THEN [null] ELSE related[..$per_seed] END AS rel
WITH position, d, rel.r AS r, rel.relation AS relation, rel.score AS score, rel.shared AS shared
RETURN position, d.id AS seed_document, r.id AS id, relation, score, shared[..5] AS shared,
       r.text AS text, coalesce(r.event_at, r.valid_from) AS event_at, r.author AS author, r.status AS status,
       r.valid_from AS valid_from, r.valid_to AS valid_to, r.source AS source
ORDER BY position, CASE WHEN relation = 'thread' THEN 1 ELSE 0 END, score DESC, id
