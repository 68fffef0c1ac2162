// Create Episodic nodes (documents, steps, turns) in $space from $rows; an existing id is left unchanged.
UNWIND $rows AS row
MERGE (n:Episodic {id: row.id})
  ON CREATE SET n += row.props, n.space = $space
