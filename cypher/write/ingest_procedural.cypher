// Create Procedural insights in $space, route them (Subgoal)-[:HAS_PROCEDURE]->(Procedural) and refresh
// each touched subgoal's `members` (the number of procedures routed to it).
UNWIND $rows AS row
MERGE (p:Procedural {space: $space, id: row.id})
  ON CREATE SET p += row.props
WITH p, row
MATCH (s:Subgoal {space: $space, id: row.subgoal_id})
MERGE (s)-[:HAS_PROCEDURE]->(p)
WITH DISTINCT s
SET s.members = COUNT { (s)-[:HAS_PROCEDURE]->(:Procedural) }
