// One stored embedding per text hash among the facts of $space: a sentence seen before is not embedded again.
UNWIND $hashes AS hash
CALL (hash) {
  MATCH (f:Semantic {space: $space, content_hash: hash})
  WHERE f.embedding IS NOT NULL
  RETURN f.embedding AS embedding
  LIMIT 1
}
RETURN hash, embedding
