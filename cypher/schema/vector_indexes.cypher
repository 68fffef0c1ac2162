// Native vector indexes (cosine) with in-index filter properties, for the Cypher 25 SEARCH clause
// (Neo4j 2026.01+). $dimensions is read from the configured embedder. $quantized (GRAPHMEM_VECTOR_QUANTIZATION,
// default false) chooses Neo4j's binary codes, which it searches with a threefold candidate list and
// rescores; at 384 dimensions full-precision vectors search faster at the same recall (docs/design.md).
CYPHER 25 CREATE VECTOR INDEX semantic_embedding IF NOT EXISTS FOR (n:Semantic) ON n.embedding
  WITH [n.space, n.status, n.valid_from, n.valid_to]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                          `vector.quantization.enabled`: $quantized}};
CYPHER 25 CREATE VECTOR INDEX episodic_embedding IF NOT EXISTS FOR (n:Episodic) ON n.embedding
  WITH [n.space, n.status, n.valid_from, n.valid_to]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                          `vector.quantization.enabled`: $quantized}};
CYPHER 25 CREATE VECTOR INDEX procedural_embedding IF NOT EXISTS FOR (n:Procedural) ON n.embedding
  WITH [n.space, n.status, n.valid_from, n.valid_to]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                          `vector.quantization.enabled`: $quantized}};
CYPHER 25 CREATE VECTOR INDEX tag_embedding IF NOT EXISTS FOR (n:Tag) ON n.embedding
  WITH [n.space]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                          `vector.quantization.enabled`: $quantized}};
CYPHER 25 CREATE VECTOR INDEX subgoal_embedding IF NOT EXISTS FOR (n:Subgoal) ON n.embedding
  WITH [n.space]
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                          `vector.quantization.enabled`: $quantized}};
