"""Static web front ends the service serves (Neo4j Browser for analysts)."""
