// Full-text (Lucene BM25) indexes for the lexical leg and for analysts. They hold text only: `space` is not a
// full-text field, so a query word that equals a space's name does not match every node of that space (Lucene
// searches an unqualified word in every field). The lexical leg filters by space after Lucene
// (read/legs/lexical.py). The earlier indexes that also held `space` are dropped by name: an existing
// database is re-indexed once, on its next `graphmem schema install`.
DROP INDEX semantic_text_in_space IF EXISTS;
DROP INDEX episodic_text_in_space IF EXISTS;
DROP INDEX procedural_text_in_space IF EXISTS;
CREATE FULLTEXT INDEX semantic_text IF NOT EXISTS FOR (n:Semantic) ON EACH [n.text];
CREATE FULLTEXT INDEX episodic_text IF NOT EXISTS FOR (n:Episodic) ON EACH [n.text, n.action, n.observation];
CREATE FULLTEXT INDEX procedural_text IF NOT EXISTS FOR (n:Procedural) ON EACH [n.text, n.goal];
CREATE FULLTEXT INDEX subgoal_text IF NOT EXISTS FOR (n:Subgoal) ON EACH [n.text];
CREATE FULLTEXT INDEX tag_name IF NOT EXISTS FOR (n:Tag) ON EACH [n.name, n.norm_name];
