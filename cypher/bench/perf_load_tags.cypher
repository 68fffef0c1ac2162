// Performance benchmark bulk load: one batch of synthetic Tags.
UNWIND $rows AS row
CREATE (:Tag {id: row.id, space: row.space, name: row.name, norm_name: row.name, caption: row.name,
              embedding: row.embedding, importance: 1.0, recorded_at: $now, expired_at: $far})
