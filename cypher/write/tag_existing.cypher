// Which of the given Tag ids already exist in $space (exact normal-form matches).
UNWIND $ids AS id
MATCH (t:Tag {space: $space, id: id})
RETURN t.id AS id
