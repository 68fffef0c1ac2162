// Uniqueness of `id` for each of the six memory labels and for AuditRecord (ids are content-derived and include the space).
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episodic_id IF NOT EXISTS FOR (n:Episodic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT semantic_id IF NOT EXISTS FOR (n:Semantic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT tag_id IF NOT EXISTS FOR (n:Tag) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT subgoal_id IF NOT EXISTS FOR (n:Subgoal) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT procedural_id IF NOT EXISTS FOR (n:Procedural) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT audit_record_id IF NOT EXISTS FOR (n:AuditRecord) REQUIRE n.id IS UNIQUE;
