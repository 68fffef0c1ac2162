// Which of the given Episodic ids exist in $space, with the start of their validity.
UNWIND $ids AS id
MATCH (e:Episodic {space: $space, id: id})
RETURN e.id AS id, e.valid_from AS valid_from
