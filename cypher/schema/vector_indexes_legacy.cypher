// Native vector indexes (cosine) for Neo4j 5.13 - 2025.x, which have no in-index filters:
// reads over-fetch with db.index.vector.queryNodes and filter after.
CREATE VECTOR INDEX semantic_embedding IF NOT EXISTS FOR (n:Semantic) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX episodic_embedding IF NOT EXISTS FOR (n:Episodic) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX procedural_embedding IF NOT EXISTS FOR (n:Procedural) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX tag_embedding IF NOT EXISTS FOR (n:Tag) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX subgoal_embedding IF NOT EXISTS FOR (n:Subgoal) ON n.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
