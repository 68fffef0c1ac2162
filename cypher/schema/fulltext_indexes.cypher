// Full-text (Lucene BM25) indexes. Two per unit label:
// - `*_text` hold text only, for analysts and Neo4j's tools (neo4j-graphrag sends words unqualified, and
//   Lucene searches an unqualified word in every field, so a `space` field would let a word equal to a
//   space's name match every node of that space);
// - `*_text_in_space` hold `space` beside the text for graphmem's own lexical leg, which names its text
//   fields and asks Lucene for one space's hits (`+space:"…"^0`, see read/legs/lexical.py), so its top k is
//   exact whatever the other spaces hold. Both are kept up to date by Neo4j on every write.
CREATE FULLTEXT INDEX semantic_text IF NOT EXISTS FOR (n:Semantic) ON EACH [n.text];
CREATE FULLTEXT INDEX episodic_text IF NOT EXISTS FOR (n:Episodic) ON EACH [n.text, n.action, n.observation];
CREATE FULLTEXT INDEX procedural_text IF NOT EXISTS FOR (n:Procedural) ON EACH [n.text, n.goal];
CREATE FULLTEXT INDEX semantic_text_in_space IF NOT EXISTS FOR (n:Semantic) ON EACH [n.text, n.space];
CREATE FULLTEXT INDEX episodic_text_in_space IF NOT EXISTS FOR (n:Episodic) ON EACH [n.text, n.action, n.observation, n.space];
CREATE FULLTEXT INDEX procedural_text_in_space IF NOT EXISTS FOR (n:Procedural) ON EACH [n.text, n.goal, n.space];
CREATE FULLTEXT INDEX subgoal_text IF NOT EXISTS FOR (n:Subgoal) ON EACH [n.text];
CREATE FULLTEXT INDEX tag_name IF NOT EXISTS FOR (n:Tag) ON EACH [n.name, n.norm_name];
