// Create Episode nodes (trajectories, chat sessions) in $space from $rows; an existing (space, id) is left
// unchanged. Returns the ids that already hold other content (another writer won): the caller rolls back.
UNWIND $rows AS row
MERGE (e:Episode {space: $space, id: row.id})
  ON CREATE SET e += row.props
WITH e, row
WHERE coalesce(e.content_hash, row.props.content_hash) <> row.props.content_hash
RETURN row.id AS id
