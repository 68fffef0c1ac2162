// Create Procedural insights in $space, route them (Subgoal)-[:HAS_PROCEDURE]->(Procedural) and refresh
// each touched subgoal's `members` (the number of procedures routed to it).
UNWIND $rows AS row
MERGE (p:Procedural {id: row.id})
  ON CREATE SET p += row.props, p.space = $space
WITH p, row
MATCH (s:Subgoal {id: row.subgoal_id}) WHERE s.space = $space
MERGE (s)-[:HAS_PROCEDURE]->(p)
WITH DISTINCT s
SET s.members = COUNT { (s)-[:HAS_PROCEDURE]->(:Procedural) }
