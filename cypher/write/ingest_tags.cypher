// Create Tag nodes in $space (ids derive from the normal form, so concurrent writers MERGE onto one node).
UNWIND $rows AS row
MERGE (t:Tag {space: $space, id: row.id})
  ON CREATE SET t += row.props
