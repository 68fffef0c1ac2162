// Which of the given Episode ids exist already, and in which space.
UNWIND $ids AS id
MATCH (e:Episode {id: id})
RETURN e.id AS id, e.space AS space
