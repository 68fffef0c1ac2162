"""All graphmem settings in one place, read from the environment (and an optional `.env`).

Every setting is listed in the README's configuration table; the names are part of the interface.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

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
    # While Neo4j is unreachable a request fails after about connect + retry time, not the driver's 30 s + 30 s.
    neo4j_connection_timeout_s: float = Field(5.0, alias="GRAPHMEM_NEO4J_CONNECTION_TIMEOUT", gt=0, le=600)
    neo4j_acquisition_timeout_s: float = Field(10.0, alias="GRAPHMEM_NEO4J_ACQUISITION_TIMEOUT", gt=0, le=600)
    neo4j_max_retry_time_s: float = Field(5.0, alias="GRAPHMEM_NEO4J_MAX_RETRY_TIME", ge=0, le=600)

    # --- Embedded Neo4j (used when NEO4J_URI is unset) ---
    neo4j_version: str = Field(DEFAULT_NEO4J_VERSION, alias="GRAPHMEM_NEO4J_VERSION")
    neo4j_port: int = Field(7687, alias="GRAPHMEM_NEO4J_PORT", ge=1, le=65535)
    neo4j_data_dir: Path = Field(
        default_factory=lambda: _home_path(".local", "share", "graphmem", "neo4j"),
        alias="GRAPHMEM_NEO4J_DATA",
    )
    # `auto`: chosen from the machine's memory (graphmem/db/memory.py)
    neo4j_heap: str = Field("auto", alias="GRAPHMEM_NEO4J_HEAP", pattern=r"^(auto|\d+[kmgKMG])$")
    neo4j_pagecache: str = Field("auto", alias="GRAPHMEM_NEO4J_PAGECACHE", pattern=r"^(auto|\d+[kmgKMG])$")
    neo4j_start_timeout_s: float = Field(180.0, alias="GRAPHMEM_NEO4J_START_TIMEOUT", gt=0)
    java_home: Path | None = Field(None, alias="GRAPHMEM_JAVA_HOME")
    cache_dir: Path = Field(default_factory=lambda: _home_path(".cache", "graphmem"), alias="GRAPHMEM_CACHE_DIR")
    browser_version: str = Field(
        "5.24.0", alias="GRAPHMEM_BROWSER_VERSION", description="Neo4j Browser version served at /browser/"
    )

    # --- Embeddings ---
    embedder: str = Field(
        "sentence-transformers",
        alias="GRAPHMEM_EMBEDDER",
        description="sentence-transformers[:MODEL] | openai:MODEL | hashing[:DIM] (tests only)",
    )
    embed_batch_size: int = Field(64, alias="GRAPHMEM_EMBED_BATCH_SIZE", ge=1, le=4096)
    embed_threads: int = Field(
        1,
        alias="GRAPHMEM_EMBED_THREADS",
        ge=1,
        le=256,
        description="threads for a query-sized embedding call (a question and its tags), in ONNX Runtime or torch",
    )
    embed_query_runtime: Literal["onnx", "torch"] = Field(
        "onnx",
        alias="GRAPHMEM_EMBED_QUERY_RUNTIME",
        description="runtime of query-sized calls of the sentence-transformers embedder: onnx (the same weights, "
        "exported once to GRAPHMEM_CACHE_DIR/onnx; torch where onnxruntime is missing or the vectors differ) or torch",
    )
    embed_batch_threads: int = Field(
        0,
        alias="GRAPHMEM_EMBED_BATCH_THREADS",
        ge=0,
        le=256,
        description="torch threads for an ingest-sized embedding call; 0: one per CPU core",
    )
    embed_base_url: str | None = Field(None, alias="GRAPHMEM_EMBED_BASE_URL")
    embed_api_key: str | None = Field(None, alias="GRAPHMEM_EMBED_API_KEY")

    # --- LLM (optional; everything works without one) ---
    llm_base_url: str | None = Field(None, alias="GRAPHMEM_LLM_BASE_URL")
    llm_model: str | None = Field(None, alias="GRAPHMEM_LLM_MODEL")
    llm_api_key: str | None = Field(None, alias="GRAPHMEM_LLM_API_KEY")
    llm_timeout_s: float = Field(30.0, alias="GRAPHMEM_LLM_TIMEOUT", gt=0)
    llm_max_retries: int = Field(2, alias="GRAPHMEM_LLM_MAX_RETRIES", ge=0, le=10)

    # --- Write path ---
    structurer: str = Field(
        "auto",
        alias="GRAPHMEM_STRUCTURER",
        pattern=r"^(auto|rules|llm)$",
        description="auto (llm when GRAPHMEM_LLM_BASE_URL and _MODEL are set, else rules) | rules | llm",
    )
    derive_facts: bool = Field(True, alias="GRAPHMEM_DERIVE_FACTS", description="derive Semantic facts from documents")
    derive_chat_facts: bool = Field(
        True, alias="GRAPHMEM_DERIVE_CHAT_FACTS", description="derive Semantic facts from chat turns"
    )
    max_facts_per_document: int = Field(16, alias="GRAPHMEM_MAX_FACTS_PER_DOCUMENT", ge=0, le=1000)
    ingest_batch_size: int = Field(256, alias="GRAPHMEM_INGEST_BATCH_SIZE", ge=1, le=10000)
    forget_batch_size: int = Field(
        500, alias="GRAPHMEM_FORGET_BATCH_SIZE", ge=1, le=100000, description="evidence units erased per transaction"
    )
    tag_merge_similarity: float = Field(0.9, alias="GRAPHMEM_TAG_MERGE_SIMILARITY", gt=0, le=1)
    subgoal_cluster_similarity: float = Field(0.8, alias="GRAPHMEM_SUBGOAL_CLUSTER_SIMILARITY", gt=0, le=1)
    segment_split_similarity: float = Field(0.75, alias="GRAPHMEM_SEGMENT_SPLIT_SIMILARITY", gt=0, le=1)

    # --- Read path ---
    read_leg_weights: dict[str, float] = Field(
        # tagvote at half weight: it ranks only derived facts, with many ties after normalisation; on the
        # versioned dev set (66 q) halving it lifted hybrid recall@5 0.894 -> 0.939, gold@1 unchanged.
        # tagdocs (documents by the question subjects their facts' tags cover) at half weight: on OrgMemBench
        # dev it lifted hybrid recall@10 0.694 -> 0.748 (all@10 0.618 -> 0.647); at 1.0, 0.738.
        default_factory=lambda: {"vector": 1.0, "lexical": 1.0, "tagvote": 0.5, "tagdocs": 0.5, "subgoal": 1.0},
        alias="GRAPHMEM_READ_LEG_WEIGHTS",
        description="JSON object: weight of each leg in reciprocal-rank fusion",
    )
    read_value_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "relevance": 0.3,
            "recency": 0.05,
            "importance": 0.05,
            "return": 0.1,
            "credibility": 0.05,
            "uses": 0.02,
        },
        alias="GRAPHMEM_READ_VALUE_WEIGHTS",
        description="JSON object: value-model weights added to the normalised RRF score",
    )
    read_value_weights_by_space: dict[str, dict[str, float]] = Field(
        default_factory=dict,
        alias="GRAPHMEM_READ_VALUE_WEIGHTS_BY_SPACE",
        description="JSON object: space -> value-model weights overriding the defaults for that space",
    )
    read_source_leg_weights: dict[str, float] | None = Field(
        None,
        alias="GRAPHMEM_READ_SOURCE_LEG_WEIGHTS",
        description="JSON object: leg weights for ranking sessions / documents (default: the leg weights)",
    )
    read_source_fusion: Literal["relative", "rrf"] = Field(
        "relative",
        alias="GRAPHMEM_READ_SOURCE_FUSION",
        description="how the top candidate sources are re-ranked: relative (min-max score sum) or rrf (ranks)",
    )
    vector_quantization: bool = Field(
        False,
        alias="GRAPHMEM_VECTOR_QUANTIZATION",
        description="quantize the vector indexes (Neo4j's binary codes); false keeps full-precision vectors",
    )
    read_rrf_k: int = Field(60, alias="GRAPHMEM_READ_RRF_K", ge=1)
    read_candidates: int = Field(50, alias="GRAPHMEM_READ_CANDIDATES", ge=1, le=10000)
    read_vector_overfetch: int = Field(2, alias="GRAPHMEM_READ_VECTOR_OVERFETCH", ge=1, le=100)
    read_lexical_stats_cap: int = Field(
        500,
        alias="GRAPHMEM_READ_LEXICAL_STATS_CAP",
        ge=1,
        le=1_000_000,
        description="the lexical leg's BM25 counts a space's units and each query term's live up to this many",
    )
    read_lexical_profile_ttl: float = Field(
        300.0,
        alias="GRAPHMEM_READ_LEXICAL_PROFILE_TTL",
        ge=0,
        description="seconds a bigger space's unit count and term sample are kept for the lexical leg's BM25",
    )
    read_latest_slots: int = Field(3, alias="GRAPHMEM_READ_LATEST_SLOTS", ge=0, le=100)
    read_expand_min_hits: int = Field(3, alias="GRAPHMEM_READ_EXPAND_MIN_HITS", ge=1)
    read_evidence_chars: int = Field(40_000, alias="GRAPHMEM_READ_EVIDENCE_CHARS", ge=100)
    read_evidence_tokens: int | None = Field(None, alias="GRAPHMEM_READ_EVIDENCE_TOKENS", ge=16)
    read_participant_share: float = Field(0.25, alias="GRAPHMEM_READ_PARTICIPANT_SHARE", ge=0)
    # A document where every name a question asks about meets (graphmem/read/coverage.py) gains this much.
    # On OrgMemBench dev, side by side on one database: recall@10 0.724 -> 0.753 at 0.3 (0.2 moved only
    # recall@20; 0.4 lost a bitemporal document); versioned seeds unchanged; HotpotQA recall@5 unchanged,
    # recall@2 0.574 -> 0.560 (several distractor paragraphs name every entity of a bridge question).
    read_cover_bonus: float = Field(0.3, alias="GRAPHMEM_READ_COVER_BONUS", ge=0)
    read_cover_max_documents: int = Field(5, alias="GRAPHMEM_READ_COVER_MAX_DOCUMENTS", ge=1, le=1000)
    # Numbers the question names (graphmem/read/pipeline/stages/numbers.py): a candidate of the first window holding
    # the question's words written with digits gains up to this weight, by how few candidates hold them.
    read_numbers_weight: float = Field(0.6, alias="GRAPHMEM_READ_NUMBERS_WEIGHT", ge=0)
    read_numbers_window: int = Field(30, alias="GRAPHMEM_READ_NUMBERS_WINDOW", ge=0, le=1000)
    read_version_window: int = Field(30, alias="GRAPHMEM_READ_VERSION_WINDOW", ge=0, le=1000)
    read_version_cosine: float = Field(0.65, alias="GRAPHMEM_READ_VERSION_COSINE", ge=-1, le=1)
    read_version_subject_cosine: float = Field(0.3, alias="GRAPHMEM_READ_VERSION_SUBJECT_COSINE", ge=-1, le=1)
    read_version_margin: float = Field(0.1, alias="GRAPHMEM_READ_VERSION_MARGIN", ge=0)
    read_slot_weight: float = Field(0.0, alias="GRAPHMEM_READ_SLOT_WEIGHT", ge=0)
    read_slot_margin: float = Field(0.1, alias="GRAPHMEM_READ_SLOT_MARGIN", ge=0)
    read_slot_saturation: float = Field(0.8, alias="GRAPHMEM_READ_SLOT_SATURATION", gt=0, le=1)
    read_slot_window: int = Field(30, alias="GRAPHMEM_READ_SLOT_WINDOW", ge=0, le=1000)
    read_slot_rarity_cap: int = Field(1000, alias="GRAPHMEM_READ_SLOT_RARITY_CAP", ge=1, le=1_000_000)
    read_slot_pairs_window: int = Field(30, alias="GRAPHMEM_READ_SLOT_PAIRS_WINDOW", ge=0, le=1000)
    read_slot_pairs_overlap: float = Field(0.7, alias="GRAPHMEM_READ_SLOT_PAIRS_OVERLAP", ge=0, le=1)
    read_slot_pairs_shared: float = Field(0.6, alias="GRAPHMEM_READ_SLOT_PAIRS_SHARED", ge=0, le=1)
    read_slot_pairs_tier: float = Field(0.1, alias="GRAPHMEM_READ_SLOT_PAIRS_TIER", ge=0, le=1)
    read_slot_pairs_cosine: float = Field(-1.0, alias="GRAPHMEM_READ_SLOT_PAIRS_COSINE", ge=-1, le=1)
    read_slot_pairs_event_gate: bool = Field(True, alias="GRAPHMEM_READ_SLOT_PAIRS_EVENT_GATE")
    read_slot_pairs_defer: bool = Field(True, alias="GRAPHMEM_READ_SLOT_PAIRS_DEFER")
    read_slot_pairs_defer_bounded: bool = Field(False, alias="GRAPHMEM_READ_SLOT_PAIRS_DEFER_BOUNDED")
    read_related_seeds: int = Field(5, alias="GRAPHMEM_READ_RELATED_SEEDS", ge=0, le=100)
    read_related_per_seed: int = Field(3, alias="GRAPHMEM_READ_RELATED_PER_SEED", ge=1, le=50)
    read_related_window_days: int = Field(3, alias="GRAPHMEM_READ_RELATED_WINDOW_DAYS", ge=0, le=365)
    read_related_min_score: float = Field(0.65, alias="GRAPHMEM_READ_RELATED_MIN_SCORE")
    read_related_tag_weight: float = Field(0.1, alias="GRAPHMEM_READ_RELATED_TAG_WEIGHT", ge=0)
    read_related_max_tag_degree: int = Field(50, alias="GRAPHMEM_READ_RELATED_MAX_TAG_DEGREE", ge=1)
    read_contradiction_candidates: int = Field(30, alias="GRAPHMEM_READ_CONTRADICTION_CANDIDATES", ge=0, le=200)
    read_as_of_from_question: bool = Field(
        True,
        alias="GRAPHMEM_READ_AS_OF_FROM_QUESTION",
        description="a question stating its as-of date ('as of 2023-02-19') is bounded by it when no asOf is given",
    )
    # Added to the score of candidates dated near a date the question names (graphmem.read.question_dates);
    # on OrgMemBench dev (5 of 34 questions name such a date) 0.1 lifted recall@5 0.483 -> 0.513, recall@10
    # unchanged; 0.3 cost recall@10 0.015.
    read_date_match_weight: float = Field(
        0.1,
        alias="GRAPHMEM_READ_DATE_MATCH_WEIGHT",
        ge=0,
        description="score added to candidates dated within a day / month (give or take a week) the question names",
    )
    read_reasoning_tokens: int = Field(300, alias="GRAPHMEM_READ_REASONING_TOKENS", ge=16)
    read_recency_half_life_days: float = Field(180.0, alias="GRAPHMEM_READ_RECENCY_HALF_LIFE_DAYS", gt=0)
    read_tag_min_cosine: float = Field(0.8, alias="GRAPHMEM_READ_TAG_MIN_COSINE", gt=0, le=1)
    read_tag_exact_weight: float = Field(5.0, alias="GRAPHMEM_READ_TAG_EXACT_WEIGHT", ge=0)
    read_tag_fuzzy_weight: float = Field(1.0, alias="GRAPHMEM_READ_TAG_FUZZY_WEIGHT", ge=0)
    read_tag_dense_bonus: float = Field(2.0, alias="GRAPHMEM_READ_TAG_DENSE_BONUS", ge=0)
    read_subgoals: int = Field(5, alias="GRAPHMEM_READ_SUBGOALS", ge=1, le=100)
    read_multihop_rounds: int = Field(3, alias="GRAPHMEM_READ_MULTIHOP_ROUNDS", ge=1, le=10)
    # Passage bridges (graphmem/read/bridges.py), in `hybrid`, only where the candidates rest on undated
    # documents: the window's units vote for their passage, and the best passages' uncommon tags lift the
    # passages they reach.
    read_bridge_weight: float = Field(0.0, alias="GRAPHMEM_READ_BRIDGE_WEIGHT", ge=0)
    read_bridge_seeds: int = Field(2, alias="GRAPHMEM_READ_BRIDGE_SEEDS", ge=0, le=50)
    read_bridge_window: int = Field(0, alias="GRAPHMEM_READ_BRIDGE_WINDOW", ge=0, le=1000)
    read_bridge_max_degree: int = Field(50, alias="GRAPHMEM_READ_BRIDGE_MAX_DEGREE", ge=1)
    read_bridge_vote: float = Field(0.0, alias="GRAPHMEM_READ_BRIDGE_VOTE", ge=0)
    read_bridge_per_seed: int = Field(1, alias="GRAPHMEM_READ_BRIDGE_PER_SEED", ge=1, le=50)

    # --- Evolution (consolidation) ---
    consolidate_classifier: str = Field(
        "auto",
        alias="GRAPHMEM_CONSOLIDATE_CLASSIFIER",
        pattern=r"^(auto|rules|llm)$",
        description="auto (llm when GRAPHMEM_LLM_BASE_URL and _MODEL are set, else rules) | rules | llm",
    )
    consolidate_max_pairs: int = Field(
        500, alias="GRAPHMEM_CONSOLIDATE_MAX_PAIRS", ge=1, le=100_000, description="pairs classified per run"
    )
    consolidate_max_nodes: int = Field(
        2000, alias="GRAPHMEM_CONSOLIDATE_MAX_NODES", ge=1, le=1_000_000, description="nodes probed per run"
    )
    consolidate_neighbours: int = Field(5, alias="GRAPHMEM_CONSOLIDATE_NEIGHBOURS", ge=1, le=100)
    consolidate_min_similarity: float = Field(0.6, alias="GRAPHMEM_CONSOLIDATE_MIN_SIMILARITY", ge=0, le=1)
    consolidate_max_tag_degree: int = Field(
        50,
        alias="GRAPHMEM_CONSOLIDATE_MAX_TAG_DEGREE",
        ge=2,
        le=100_000,
        description="skip hub tags above this",
    )

    # --- Clients of a running service (graphmem.Client defaults, `graphmem mcp`) ---
    service_url: str = Field("http://127.0.0.1:8000", alias="GRAPHMEM_URL", description="service base URL")
    client_api_key: str | None = Field(None, alias="GRAPHMEM_API_KEY", description="key a client sends")
    client_space: str | None = Field(None, alias="GRAPHMEM_SPACE", description="default space of `graphmem mcp`")

    # --- Service ---
    log_format: str = Field("json", alias="GRAPHMEM_LOG_FORMAT", pattern=r"^(json|text)$")
    log_level: str = Field("INFO", alias="GRAPHMEM_LOG_LEVEL", pattern=r"^(?i:debug|info|warning|error)$")
    host: str = Field("127.0.0.1", alias="GRAPHMEM_HOST")
    port: int = Field(8000, alias="GRAPHMEM_PORT", ge=1, le=65535)
    # Longer than clients' idle-connection expiry (httpx: 5 s), so a client never reuses a connection the
    # server is closing at that instant: the 64-client load run lost one request to that race at 5 s.
    keep_alive_s: float = Field(65.0, alias="GRAPHMEM_KEEP_ALIVE_S", gt=0, le=3600)
    api_keys: str | None = Field(None, alias="GRAPHMEM_API_KEYS", description="key records, see README")
    api_key_file: Path | None = Field(
        None, alias="GRAPHMEM_API_KEY_FILE", description="default api-keys.json in GRAPHMEM_SECRETS_DIR"
    )
    api_key_store: str = Field(
        "auto",
        alias="GRAPHMEM_API_KEY_STORE",
        pattern=r"^(auto|database|file)$",
        description="where API keys live: database | file | auto (database with NEO4J_URI, else file)",
    )
    secrets_dir: Path = Field(
        default_factory=lambda: _home_path(".config", "graphmem"),
        alias="GRAPHMEM_SECRETS_DIR",
        description="owner-only folder (0700) for the generated Neo4j password, the key file and the dev key",
    )

    # --- GraphQL API limits (refused with a clear error above these) ---
    api_max_depth: int = Field(12, alias="GRAPHMEM_API_MAX_DEPTH", ge=2, le=100)
    api_max_tokens: int = Field(2000, alias="GRAPHMEM_API_MAX_TOKENS", ge=50, le=1_000_000)
    api_max_aliases: int = Field(30, alias="GRAPHMEM_API_MAX_ALIASES", ge=1, le=10_000)
    api_max_first: int = Field(100, alias="GRAPHMEM_API_MAX_FIRST", ge=1, le=10_000)
    api_max_text_chars: int = Field(200_000, alias="GRAPHMEM_API_MAX_TEXT_CHARS", ge=100)
    api_max_batch: int = Field(500, alias="GRAPHMEM_API_MAX_BATCH", ge=1, le=100_000)
    api_max_body_bytes: int = Field(16_000_000, alias="GRAPHMEM_API_MAX_BODY_BYTES", ge=10_000)
    api_max_cost: int = Field(50_000, alias="GRAPHMEM_API_MAX_COST", ge=100, le=100_000_000)
    api_max_response_bytes: int = Field(8_000_000, alias="GRAPHMEM_API_MAX_RESPONSE_BYTES", ge=10_000)
    api_query_timeout_s: float = Field(30.0, alias="GRAPHMEM_API_QUERY_TIMEOUT", gt=0, le=3600)

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
    def key_store(self) -> str:
        """`database` or `file`: auto picks the database when NEO4J_URI names a server several instances can
        share, the key file with the embedded single-machine server."""
        if self.api_key_store != "auto":
            return self.api_key_store
        return "file" if self.uses_embedded_neo4j else "database"

    @property
    def embedded_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.neo4j_port}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
