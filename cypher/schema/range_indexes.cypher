// Range indexes: every query filters on space; as-of reads compare time fields; status picks versions.
CREATE INDEX episode_space IF NOT EXISTS FOR (n:Episode) ON (n.space, n.session_id);
CREATE INDEX episode_started IF NOT EXISTS FOR (n:Episode) ON (n.space, n.started_at);
CREATE INDEX episodic_space_status IF NOT EXISTS FOR (n:Episodic) ON (n.space, n.status);
CREATE INDEX episodic_space_kind IF NOT EXISTS FOR (n:Episodic) ON (n.space, n.kind);
CREATE INDEX episodic_hash IF NOT EXISTS FOR (n:Episodic) ON (n.space, n.content_hash);
CREATE INDEX episodic_event IF NOT EXISTS FOR (n:Episodic) ON (n.space, n.event_at);
CREATE INDEX episodic_valid IF NOT EXISTS FOR (n:Episodic) ON (n.valid_from, n.valid_to);
CREATE INDEX episodic_recorded IF NOT EXISTS FOR (n:Episodic) ON (n.recorded_at, n.expired_at);
CREATE INDEX semantic_space_status IF NOT EXISTS FOR (n:Semantic) ON (n.space, n.status);
CREATE INDEX semantic_hash IF NOT EXISTS FOR (n:Semantic) ON (n.space, n.content_hash);
CREATE INDEX semantic_valid IF NOT EXISTS FOR (n:Semantic) ON (n.valid_from, n.valid_to);
CREATE INDEX semantic_recorded IF NOT EXISTS FOR (n:Semantic) ON (n.recorded_at, n.expired_at);
CREATE INDEX procedural_space_status IF NOT EXISTS FOR (n:Procedural) ON (n.space, n.status);
CREATE INDEX procedural_valid IF NOT EXISTS FOR (n:Procedural) ON (n.valid_from, n.valid_to);
CREATE INDEX procedural_recorded IF NOT EXISTS FOR (n:Procedural) ON (n.recorded_at, n.expired_at);
CREATE INDEX tag_space_norm IF NOT EXISTS FOR (n:Tag) ON (n.space, n.norm_name);
CREATE INDEX subgoal_space IF NOT EXISTS FOR (n:Subgoal) ON (n.space);
CREATE INDEX supersedes_at IF NOT EXISTS FOR ()-[r:SUPERSEDES]-() ON (r.at);
