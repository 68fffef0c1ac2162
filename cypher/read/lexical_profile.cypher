// A profile of one kind's units in $space for the lexical leg's BM25 (read/legs/space_profile.py): how many
// units the space holds (`units`), and the text of its first $sample units in index order (`sample`, each as
// the lexical leg reads a unit's text), from which the mean length and the share of units holding a common
// term are estimated. Read rarely: the profile is cached.
// (`n.id IS NOT NULL` lets the planner count by the (space, id) index instead of scanning the label.)
CYPHER 25
CALL () {
  WHEN $kind = 'semantic' THEN {
    MATCH (n:Semantic) WHERE n.space = $space AND n.id IS NOT NULL RETURN count(n) AS units
  }
  WHEN $kind = 'episodic' THEN {
    MATCH (n:Episodic) WHERE n.space = $space AND n.id IS NOT NULL RETURN count(n) AS units
  }
  WHEN $kind = 'procedural' THEN {
    MATCH (n:Procedural) WHERE n.space = $space AND n.id IS NOT NULL RETURN count(n) AS units
  }
}
CALL () {
  WHEN $kind = 'semantic' THEN {
    MATCH (n:Semantic) WHERE n.space = $space AND n.id IS NOT NULL WITH n LIMIT $sample
    RETURN collect(n.text) AS sample
  }
  WHEN $kind = 'episodic' THEN {
    MATCH (n:Episodic) WHERE n.space = $space AND n.id IS NOT NULL WITH n LIMIT $sample
    RETURN collect(coalesce(n.text, trim(coalesce(n.action, '') + ' ' + coalesce(n.observation, ''))))
      AS sample
  }
  WHEN $kind = 'procedural' THEN {
    MATCH (n:Procedural) WHERE n.space = $space AND n.id IS NOT NULL WITH n LIMIT $sample
    RETURN collect(n.text) AS sample
  }
}
RETURN units, sample
