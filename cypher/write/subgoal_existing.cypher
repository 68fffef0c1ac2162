// Which of the given Subgoal ids already exist in $space (exact normal-form matches).
UNWIND $ids AS id
MATCH (s:Subgoal {id: id})
WHERE s.space = $space
RETURN s.id AS id
