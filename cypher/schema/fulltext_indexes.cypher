// Full-text (Lucene BM25) indexes for the lexical leg and tag lookup. The unit indexes hold `space` beside
// the text, so the lexical leg asks Lucene for one space's hits (`+space:"…"^0`, see read/legs/lexical.py)
// instead of a top N over every space that it then filters. The first indexes (no `space`) are dropped:
// an existing database is re-indexed once, on its next `graphmem schema install`.
DROP INDEX semantic_text IF EXISTS;
DROP INDEX episodic_text IF EXISTS;
DROP INDEX procedural_text IF EXISTS;
CREATE FULLTEXT INDEX semantic_text_in_space IF NOT EXISTS FOR (n:Semantic) ON EACH [n.text, n.space];
CREATE FULLTEXT INDEX episodic_text_in_space IF NOT EXISTS FOR (n:Episodic) ON EACH [n.text, n.action, n.observation, n.space];
CREATE FULLTEXT INDEX procedural_text_in_space IF NOT EXISTS FOR (n:Procedural) ON EACH [n.text, n.goal, n.space];
CREATE FULLTEXT INDEX subgoal_text IF NOT EXISTS FOR (n:Subgoal) ON EACH [n.text];
CREATE FULLTEXT INDEX tag_name IF NOT EXISTS FOR (n:Tag) ON EACH [n.name, n.norm_name];
