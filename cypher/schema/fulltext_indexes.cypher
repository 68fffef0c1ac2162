// Full-text (Lucene BM25) indexes for the lexical leg and tag lookup.
CREATE FULLTEXT INDEX semantic_text IF NOT EXISTS FOR (n:Semantic) ON EACH [n.text];
CREATE FULLTEXT INDEX episodic_text IF NOT EXISTS FOR (n:Episodic) ON EACH [n.text, n.action, n.observation];
CREATE FULLTEXT INDEX procedural_text IF NOT EXISTS FOR (n:Procedural) ON EACH [n.text, n.goal];
CREATE FULLTEXT INDEX subgoal_text IF NOT EXISTS FOR (n:Subgoal) ON EACH [n.text];
CREATE FULLTEXT INDEX tag_name IF NOT EXISTS FOR (n:Tag) ON EACH [n.name, n.norm_name];
