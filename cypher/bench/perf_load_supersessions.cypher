// Performance benchmark bulk load: dated SUPERSEDES edges between synthetic fact versions.
UNWIND $rows AS row
MATCH (new:Semantic {space: row.space, id: row.new_id}), (old:Semantic {space: row.space, id: row.old_id})
CREATE (new)-[:SUPERSEDES {at: row.at, recorded_at: row.at, kind: 'explicit', reason: 'benchmark', by: 'bench'}]->(old)
