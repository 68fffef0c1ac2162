// Which of the given Episodic ids exist in $space, with the start of their validity.
UNWIND $ids AS id
MATCH (e:Episodic {id: id})
WHERE e.space = $space
RETURN e.id AS id, e.valid_from AS valid_from
