// Repeats among a result's evidence units: for each given id of $space that REPEATS another unit, the unit it repeats.
UNWIND $ids AS unit_id
MATCH (u:Episodic {space: $space, id: unit_id})-[:REPEATS]->(first:Episodic {space: $space})
RETURN u.id AS id, first.id AS first_id
