// Create Subgoal nodes in $space (a reused cluster keeps its own text and embedding).
UNWIND $rows AS row
MERGE (s:Subgoal {space: $space, id: row.id})
  ON CREATE SET s += row.props
