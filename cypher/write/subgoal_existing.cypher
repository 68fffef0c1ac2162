// Which of the given Subgoal ids already exist in $space (exact normal-form matches).
UNWIND $ids AS id
MATCH (s:Subgoal {space: $space, id: id})
RETURN s.id AS id
