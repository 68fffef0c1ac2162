// Lexical benchmark cleanup: drop the former-shape full-text index.
DROP INDEX bench_semantic_text_in_space IF EXISTS
