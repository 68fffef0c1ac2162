// The episode of each evidence unit (DataLoader batch): key = Episodic id, value = its Episode.
UNWIND $ids AS id
MATCH (e:Episodic {id: id})-[:PART_OF]->(ep:Episode)
WHERE e.space = $space AND ep.space = $space
RETURN id AS key, ep {.*} AS value
