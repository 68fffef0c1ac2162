// Episode nodes by graphmem id, only in the spaces the caller may touch ($all_spaces for a '*' key).
UNWIND $ids AS id
MATCH (n:Episode {id: id})
WHERE $all_spaces OR n.space IN $spaces
RETURN n.id AS key, n {.*, embedding: null} AS value
