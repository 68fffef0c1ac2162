// Create Episodic nodes (documents, steps, turns) in $space from $rows; an existing (space, id) is left
// unchanged. Returns the ids that already hold another text or kind (another writer won): the caller rolls back.
UNWIND $rows AS row
MERGE (n:Episodic {space: $space, id: row.id})
  ON CREATE SET n += row.props
WITH n, row
WHERE n.kind <> row.props.kind OR coalesce(n.content_hash, row.props.content_hash) <> row.props.content_hash
RETURN row.id AS id
