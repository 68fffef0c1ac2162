// Vector leg: kNN in each kind's native index ($kinds: semantic, episodic, procedural), filtered inside it by
// space, status and valid time; the best $k of all kinds in one round trip (at a tied score, kinds in $kinds
// order). Times come back as ISO text, which the Python driver decodes far faster than DateTime values; the rows
// come back as one list of maps, best first (one record for the driver to build instead of one per row).
CYPHER 25
UNWIND range(0, size($kinds) - 1) AS kind_order
CALL (kind_order) {
  WHEN $kinds[kind_order] = 'semantic' THEN {
    MATCH (n:Semantic)
      SEARCH n IN (VECTOR INDEX semantic_embedding FOR $vector
        WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
        LIMIT $fetch)
      SCORE AS score
    WITH n, score
    WHERE n.recorded_at <= $known_at AND n.expired_at > $known_at
      AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (n)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (n)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
    WITH n, 2 * score - 1 AS score
    ORDER BY score DESC
    LIMIT $k
    RETURN n.id AS id, 'semantic' AS kind, n.text AS text, score,
           toString(coalesce(n.event_at, n.valid_from)) AS event_at, n.author AS author,
           n.importance AS importance, n.credibility AS credibility, null AS ret, null AS uses,
           null AS episode_id, null AS seq, null AS unit_kind, n
  }
  WHEN $kinds[kind_order] = 'episodic' THEN {
    MATCH (n:Episodic)
      SEARCH n IN (VECTOR INDEX episodic_embedding FOR $vector
        WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
        LIMIT $fetch)
      SCORE AS score
    WITH n, score
    WHERE n.recorded_at <= $known_at AND n.expired_at > $known_at
      AND ($known_now OR NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of })
    WITH n, 2 * score - 1 AS score
    ORDER BY score DESC
    LIMIT $k
    OPTIONAL MATCH (n)-[:PART_OF]->(e:Episode {space: $space})
    WITH n, score, head(collect(e.id)) AS episode_id
    RETURN n.id AS id, 'episodic' AS kind,
           coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, ''))) AS text, score,
           toString(coalesce(n.event_at, n.valid_from)) AS event_at, n.author AS author,
           coalesce(n.importance, 1.0) AS importance, 1.0 AS credibility, n.reward AS ret, null AS uses,
           episode_id, n.seq AS seq, n.kind AS unit_kind, n
  }
  WHEN $kinds[kind_order] = 'procedural' THEN {
    MATCH (n:Procedural)
      SEARCH n IN (VECTOR INDEX procedural_embedding FOR $vector
        WHERE n.space = $space AND n.status IN $statuses AND n.valid_from <= $as_of AND n.valid_to > $open_after
        LIMIT $fetch)
      SCORE AS score
    WITH n, score
    WHERE n.recorded_at <= $known_at AND n.expired_at > $known_at
      AND ($known_now OR (NOT EXISTS { MATCH ()-[closing:SUPERSEDES|MERGED_FROM]->(n) WHERE closing.recorded_at <= $known_at AND closing.at <= $as_of } AND (NOT EXISTS { (n)-[:EVIDENCED_BY]->() } OR EXISTS { MATCH (n)-[:EVIDENCED_BY]->(support) WHERE support.valid_from <= $as_of AND support.recorded_at <= $known_at AND support.expired_at > $known_at AND NOT EXISTS { MATCH ()-[unit_closing:SUPERSEDES|MERGED_FROM]->(support) WHERE unit_closing.recorded_at <= $known_at AND unit_closing.at <= $as_of } })))
    WITH n, 2 * score - 1 AS score
    ORDER BY score DESC
    LIMIT $k
    RETURN n.id AS id, 'procedural' AS kind, n.text AS text, score, toString(n.valid_from) AS event_at,
           null AS author, n.importance AS importance, n.credibility AS credibility, n.`return` AS ret,
           n.uses AS uses, null AS episode_id, null AS seq, null AS unit_kind, n
  }
}
WITH id, kind, text, score, event_at, author, importance, credibility, ret, uses, episode_id, seq, unit_kind, n,
     kind_order
ORDER BY score DESC, kind_order
LIMIT $k
RETURN collect({id: id, kind: kind, text: text, score: score, event_at: event_at, author: author, status: n.status,
                valid_from: toString(n.valid_from), valid_to: toString(n.valid_to), importance: importance,
                credibility: credibility, ret: ret, uses: uses, episode_id: episode_id, seq: seq,
                unit_kind: unit_kind, similarity: score}) AS rows
