// Which of the given Tag ids already exist in $space (exact normal-form matches).
UNWIND $ids AS id
MATCH (t:Tag {id: id})
WHERE t.space = $space
RETURN t.id AS id
