// What changed in a space between two dates, and who changed it: supersessions (who linked them, why),
// consolidation merges, and versions added (their author), oldest first. The service's `changes` runs this.
// Parameters: $space (text); $since, $until (datetimes, valid time; the window is [since, until)), e.g.
// :param since => datetime('2024-01-01T00:00:00Z'); $limit (integer, most rows returned, e.g. 1000).
// (`status IS NOT NULL` lets the planner seek the (space, status) range indexes, one label at a time: a label
// disjunction or a bare `{space: $space}` scans every space's nodes.)
// Dates given as text (Browser's `:params {...}` map form) would compare as null and match nothing: refused.
WITH CASE WHEN $since IS :: ZONED DATETIME AND $until IS :: ZONED DATETIME THEN true
          ELSE datetime('since and until must be datetimes (:param since => datetime(...)), not the text '
                        + toString($since) + ', ' + toString($until)) END AS typed
CALL () {
  MATCH (new)-[r:SUPERSEDES]->(old)
  WHERE r.at >= $since AND r.at < $until AND new.space = $space AND old.space = $space
  RETURN 'superseded' AS change, r.at AS at, r.recorded_at AS recorded_at, new.id AS id, old.id AS other_id,
         [l IN labels(new) WHERE l IN ['Semantic', 'Procedural', 'Episodic']][0] AS label,
         coalesce(new.text, new.caption) AS text, r.by AS by, r.kind AS kind, r.reason AS reason
  UNION ALL
  CALL () {
    MATCH (m:Semantic) WHERE m.space = $space AND m.status IS NOT NULL RETURN m
    UNION
    MATCH (m:Procedural) WHERE m.space = $space AND m.status IS NOT NULL RETURN m
  }
  MATCH (m)-[r:MERGED_FROM]->(src)
  WHERE r.at >= $since AND r.at < $until
  RETURN 'merged' AS change, r.at AS at, r.recorded_at AS recorded_at, m.id AS id, src.id AS other_id,
         [l IN labels(m) WHERE l IN ['Semantic', 'Procedural']][0] AS label,
         m.text AS text, 'consolidation' AS by, null AS kind, null AS reason
  UNION ALL
  MATCH (n:Semantic {space: $space})
  WHERE n.status IS NOT NULL AND n.valid_from >= $since AND n.valid_from < $until AND NOT (n)-[:MERGED_FROM]->()
  RETURN 'added' AS change, n.valid_from AS at, n.recorded_at AS recorded_at, n.id AS id, null AS other_id,
         'Semantic' AS label, n.text AS text, n.author AS by, null AS kind, null AS reason
  UNION ALL
  MATCH (n:Procedural {space: $space})
  WHERE n.status IS NOT NULL AND n.valid_from >= $since AND n.valid_from < $until AND NOT (n)-[:MERGED_FROM]->()
  RETURN 'added' AS change, n.valid_from AS at, n.recorded_at AS recorded_at, n.id AS id, null AS other_id,
         'Procedural' AS label, n.text AS text, null AS by, null AS kind, null AS reason
  UNION ALL
  MATCH (n:Episodic {space: $space})
  WHERE n.status IS NOT NULL AND n.valid_from >= $since AND n.valid_from < $until
  RETURN 'added' AS change, n.valid_from AS at, n.recorded_at AS recorded_at, n.id AS id, null AS other_id,
         'Episodic' AS label, coalesce(n.text, n.action, n.caption) AS text, n.author AS by, null AS kind,
         null AS reason
}
RETURN change, at, recorded_at, id, other_id, label, text, by, kind, reason
ORDER BY at, change, id
LIMIT $limit
