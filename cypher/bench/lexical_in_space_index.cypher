// Lexical benchmark: the former full-text index shape (text and `space`), to compare against filtering after Lucene.
CREATE FULLTEXT INDEX bench_semantic_text_in_space IF NOT EXISTS FOR (n:Semantic) ON EACH [n.text, n.space]
