"""The small hierarchy of domain errors, mapped once to CLI messages and GraphQL `userErrors`."""

from __future__ import annotations


class GraphmemError(Exception):
    """Base of every expected graphmem failure; its message is safe to show a user."""

    code = "ERROR"


class ConfigError(GraphmemError):
    """The environment or settings make the requested operation impossible (no JDK, bad port...)."""

    code = "CONFIG"


class StoreUnavailable(GraphmemError):
    """Neo4j cannot be reached or refused the credentials."""

    code = "STORE_UNAVAILABLE"


class InvalidInput(GraphmemError):
    """A caller-supplied value is wrong; `field` names it (dotted path for nested values)."""

    code = "INVALID_INPUT"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotFound(GraphmemError):
    code = "NOT_FOUND"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Conflict(GraphmemError):
    code = "CONFLICT"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Forbidden(GraphmemError):
    """The caller's key lacks the scope or space the operation needs."""

    code = "FORBIDDEN"
