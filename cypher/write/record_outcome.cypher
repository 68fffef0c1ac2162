// Feedback on a procedure: count the use and fold `reward` into its running mean return (the return it
// was created with counts as one observation). `SET p.uses = p.uses + 1` reads and writes under the node's
// write lock, so concurrent outcomes lose no increment; the return is then computed from the locked count.
MATCH (p:Procedural {id: $id})
WHERE p.space = $space
SET p.uses = coalesce(p.uses, 0) + 1
WITH p
SET p.`return` = (coalesce(p.`return`, 0.0) * p.uses + $reward) / (p.uses + 1)
RETURN p.id AS id, p.`return` AS `return`, p.uses AS uses
