// Feedback on a procedure: count the use and fold `reward` into its running mean return (the return it
// was created with counts as one observation).
MATCH (p:Procedural {id: $id})
WHERE p.space = $space
WITH p, coalesce(p.uses, 0) AS n, coalesce(p.`return`, 0.0) AS r
SET p.uses = n + 1, p.`return` = (r * (n + 1) + $reward) / (n + 2)
RETURN p.id AS id, p.`return` AS `return`, p.uses AS uses
