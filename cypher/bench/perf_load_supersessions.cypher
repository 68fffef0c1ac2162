// Performance benchmark bulk load: dated SUPERSEDES edges between synthetic fact versions.
UNWIND $rows AS row
MATCH (new:Semantic {id: row.new_id}), (old:Semantic {id: row.old_id})
CREATE (new)-[:SUPERSEDES {at: row.at, recorded_at: row.at, kind: 'explicit', reason: 'benchmark', by: 'bench'}]->(old)
