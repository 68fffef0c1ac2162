// Performance benchmark bulk load: one batch of synthetic Semantic facts with their tags and evidence.
UNWIND $rows AS row
CREATE (f:Semantic {id: row.id, space: row.space, text: row.text, caption: left(row.text, 60),
                    embedding: row.embedding, status: row.status, valid_from: row.valid_from,
                    valid_to: row.valid_to, recorded_at: row.valid_from, expired_at: $far,
                    event_at: row.valid_from, author: row.author, credibility: 1.0, importance: 1.0})
WITH f, row
MATCH (e:Episodic {space: row.space, id: row.evidence_id})
CREATE (f)-[:EVIDENCED_BY]->(e)
WITH f, row
UNWIND row.tag_ids AS tag_id
MATCH (t:Tag {space: row.space, id: tag_id})
CREATE (t)-[:TAGS]->(f)
