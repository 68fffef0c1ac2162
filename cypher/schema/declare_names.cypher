// Every label, relationship type and property key the model declares (graphmem.model.nodes.declared_names),
// created as names only — no node or relationship is written — so that on a fresh database a query naming one
// that nothing uses yet (MERGED_FROM before the first consolidation, AuditRecord before the first erasure)
// plans without "... does not exist" warnings in Neo4j Browser, drivers' logs or neo4j-graphrag.
// Parameters: $labels, $types, $properties (lists of names).
UNWIND $labels AS name CALL db.createLabel(name) RETURN count(*) AS labels;
UNWIND $types AS name CALL db.createRelationshipType(name) RETURN count(*) AS types;
UNWIND $properties AS name CALL db.createProperty(name) RETURN count(*) AS properties;
