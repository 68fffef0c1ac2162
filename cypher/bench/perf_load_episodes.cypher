// Performance benchmark bulk load: synthetic Episodes, each with its Episodic evidence units.
UNWIND $rows AS row
CREATE (ep:Episode {id: row.id, space: row.space, goal: row.goal, kind: 'trajectory', caption: row.goal,
                    started_at: $start, recorded_at: $now, expired_at: $far})
WITH ep, row
UNWIND row.units AS unit
CREATE (u:Episodic {id: unit.id, space: row.space, kind: 'step', text: unit.text, caption: left(unit.text, 60),
                    seq: unit.seq, embedding: unit.embedding, status: 'active', valid_from: $start,
                    valid_to: $far, recorded_at: $now, expired_at: $far, event_at: $start})
CREATE (u)-[:PART_OF]->(ep)
