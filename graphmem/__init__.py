"""graphmem: knowledge memory for LLM agents on Neo4j."""

__version__ = "0.1.0"
