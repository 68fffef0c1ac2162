// Create Episode nodes (trajectories, chat sessions) in $space from $rows; an existing id is left unchanged.
UNWIND $rows AS row
MERGE (e:Episode {id: row.id})
  ON CREATE SET e += row.props, e.space = $space
