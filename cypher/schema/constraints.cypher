// Identity belongs to the space: `(space, id)` is unique for each of the six memory labels and for AuditRecord,
// so two spaces can each hold `doc-1`. The plain `id` lookup indexes keep id-first reads (provenance, node(id))
// index-backed; every such read also filters on the space.
CREATE CONSTRAINT episode_space_id IF NOT EXISTS FOR (n:Episode) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT episodic_space_id IF NOT EXISTS FOR (n:Episodic) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT semantic_space_id IF NOT EXISTS FOR (n:Semantic) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT tag_space_id IF NOT EXISTS FOR (n:Tag) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT subgoal_space_id IF NOT EXISTS FOR (n:Subgoal) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT procedural_space_id IF NOT EXISTS FOR (n:Procedural) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE CONSTRAINT audit_record_space_id IF NOT EXISTS FOR (n:AuditRecord) REQUIRE (n.space, n.id) IS UNIQUE;
CREATE INDEX episode_id_lookup IF NOT EXISTS FOR (n:Episode) ON (n.id);
CREATE INDEX episodic_id_lookup IF NOT EXISTS FOR (n:Episodic) ON (n.id);
CREATE INDEX semantic_id_lookup IF NOT EXISTS FOR (n:Semantic) ON (n.id);
CREATE INDEX tag_id_lookup IF NOT EXISTS FOR (n:Tag) ON (n.id);
CREATE INDEX subgoal_id_lookup IF NOT EXISTS FOR (n:Subgoal) ON (n.id);
CREATE INDEX procedural_id_lookup IF NOT EXISTS FOR (n:Procedural) ON (n.id);
// API keys live outside every space (no `space` property): their key id is unique database-wide.
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.key_id IS UNIQUE;
