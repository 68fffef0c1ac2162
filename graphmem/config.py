"""All graphmem settings in one place, read from the environment (and an optional `.env`).

Every setting is listed in the README's configuration table; the names are part of the interface.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_NEO4J_VERSION = "2026.08.1"


def _home_path(*parts: str) -> Path:
    return Path.home().joinpath(*parts)


class Settings(BaseSettings):
    """graphmem configuration. Field names map to environment variables as written in `alias`."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    # --- Neo4j connection (an external server, cluster or Aura) ---
    neo4j_uri: str | None = Field(None, alias="NEO4J_URI", description="Bolt/neo4j URI of your own server")
    neo4j_user: str = Field("neo4j", alias="NEO4J_USER")
    neo4j_password: str | None = Field(None, alias="NEO4J_PASSWORD")
    neo4j_database: str = Field("neo4j", alias="NEO4J_DATABASE")

    # --- Embedded Neo4j (used when NEO4J_URI is unset) ---
    neo4j_version: str = Field(DEFAULT_NEO4J_VERSION, alias="GRAPHMEM_NEO4J_VERSION")
    neo4j_port: int = Field(7687, alias="GRAPHMEM_NEO4J_PORT", ge=1, le=65535)
    neo4j_data_dir: Path = Field(
        default_factory=lambda: _home_path(".local", "share", "graphmem", "neo4j"), alias="GRAPHMEM_NEO4J_DATA"
    )
    neo4j_heap: str = Field("1g", alias="GRAPHMEM_NEO4J_HEAP", pattern=r"^\d+[kmgKMG]$")
    neo4j_pagecache: str = Field("512m", alias="GRAPHMEM_NEO4J_PAGECACHE", pattern=r"^\d+[kmgKMG]$")
    neo4j_start_timeout_s: float = Field(180.0, alias="GRAPHMEM_NEO4J_START_TIMEOUT", gt=0)
    java_home: Path | None = Field(None, alias="GRAPHMEM_JAVA_HOME")
    cache_dir: Path = Field(default_factory=lambda: _home_path(".cache", "graphmem"), alias="GRAPHMEM_CACHE_DIR")

    # --- Embeddings ---
    embedder: str = Field(
        "sentence-transformers",
        alias="GRAPHMEM_EMBEDDER",
        description="sentence-transformers[:MODEL] | openai:MODEL | hashing[:DIM] (tests only)",
    )
    embed_batch_size: int = Field(64, alias="GRAPHMEM_EMBED_BATCH_SIZE", ge=1, le=4096)
    embed_base_url: str | None = Field(None, alias="GRAPHMEM_EMBED_BASE_URL")
    embed_api_key: str | None = Field(None, alias="GRAPHMEM_EMBED_API_KEY")

    # --- LLM (optional; everything works without one) ---
    llm_base_url: str | None = Field(None, alias="GRAPHMEM_LLM_BASE_URL")
    llm_model: str | None = Field(None, alias="GRAPHMEM_LLM_MODEL")
    llm_api_key: str | None = Field(None, alias="GRAPHMEM_LLM_API_KEY")
    llm_timeout_s: float = Field(30.0, alias="GRAPHMEM_LLM_TIMEOUT", gt=0)
    llm_max_retries: int = Field(2, alias="GRAPHMEM_LLM_MAX_RETRIES", ge=0, le=10)

    # --- Service ---
    host: str = Field("127.0.0.1", alias="GRAPHMEM_HOST")
    port: int = Field(8000, alias="GRAPHMEM_PORT", ge=1, le=65535)
    api_keys: str | None = Field(None, alias="GRAPHMEM_API_KEYS", description="key records, see README")
    api_key_file: Path | None = Field(None, alias="GRAPHMEM_API_KEY_FILE")

    @field_validator("neo4j_uri")
    @classmethod
    def _check_uri(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        schemes = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")
        if not value.startswith(schemes):
            raise ValueError(f"must start with one of {', '.join(schemes)}")
        return value

    @property
    def uses_embedded_neo4j(self) -> bool:
        return self.neo4j_uri is None

    @property
    def embedded_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.neo4j_port}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
