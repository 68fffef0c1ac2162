// Performance benchmark bulk load: synthetic Subgoals, each with its Procedurals.
UNWIND $rows AS row
CREATE (s:Subgoal {id: row.id, space: row.space, text: row.text, caption: row.text, embedding: row.embedding,
                   importance: 1.0, members: 1, recorded_at: $now, expired_at: $far})
WITH s, row
UNWIND row.procedures AS p
CREATE (proc:Procedural {id: p.id, space: row.space, text: p.text, goal: row.text, caption: left(p.text, 60),
                         embedding: p.embedding, `return`: p.ret, uses: p.uses, status: 'active',
                         credibility: 1.0, importance: 1.0, valid_from: $start, valid_to: $far,
                         recorded_at: $now, expired_at: $far})
CREATE (s)-[:HAS_PROCEDURE]->(proc)
