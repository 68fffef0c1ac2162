"""Errors as clients see them, mapped once from `graphmem.errors`.

- Expected failures in mutations → payload `userErrors {field, code, message}` (`user_errors`).
- Failures of read roots and bad arguments → GraphQL errors with `extensions {code, field, requestId}`.
- Anything unexpected → logged in full with the request id, shown as "internal error (request id …)".
No stack trace or driver message ever reaches a client.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension

from graphmem.errors import GraphmemError, StoreUnavailable

log = logging.getLogger("graphmem.api")

STORE_UNAVAILABLE_MESSAGE = "store unavailable: Neo4j cannot be reached right now; retry later"


@strawberry.type(description="An expected failure of a mutation: which input field, a code and a message")
class UserError:
    field: str | None = strawberry.field(description="Dotted path of the input field, e.g. input.documents.0.text")
    code: str = strawberry.field(description="INVALID_INPUT | NOT_FOUND | CONFLICT | FORBIDDEN | STORE_UNAVAILABLE")
    message: str


def camel_field(field: str, renames: dict[str, str] | None = None) -> str:
    """A Python-side field path as the GraphQL client named it: `documents[3].event_at` ->
    `documents[3].eventAt`; `renames` maps whole leading segments (`k` -> `first`, `episodes[0]` -> `input`)."""
    for old, new in (renames or {}).items():
        if field == old or field.startswith((old + ".", old + "[")):
            field = new + field[len(old) :]
            break
    parts = []
    for part in field.split("."):
        head, *rest = part.split("_")
        parts.append(head + "".join(word[:1].upper() + word[1:] for word in rest))
    return ".".join(parts)


def renamed(exc: GraphmemError, renames: dict[str, str] | None = None) -> GraphmemError:
    """`exc` with its field named as the client knows it (the same exception when it has no field)."""
    field = getattr(exc, "field", None)
    if not field:
        return exc
    new_field = camel_field(field, renames)
    if new_field != field:
        exc.field = new_field  # type: ignore[attr-defined]
        exc.args = (f"{new_field}: {getattr(exc, 'message', '')}",)
    return exc


def public_message(exc: GraphmemError) -> str:
    """The text a client may see: a store outage never leaks the server address."""
    if isinstance(exc, StoreUnavailable):
        return STORE_UNAVAILABLE_MESSAGE
    return str(exc)


def user_errors(exc: GraphmemError, prefix: str = "input") -> list[UserError]:
    """`exc` as a userErrors list; a field path gets `prefix.` unless it already names a root argument."""
    field: str | None = getattr(exc, "field", None)
    if field and prefix and not field.startswith(prefix):
        field = f"{prefix}.{field}"
    message = getattr(exc, "message", None) if field else None
    return [UserError(field=field, code=exc.code, message=message or public_message(exc))]


def _shaped(error: GraphQLError, request_id: str) -> GraphQLError:
    original = error.original_error
    if original is None or isinstance(original, GraphQLError):
        return error  # syntax, validation and limit errors: already clear, already safe
    extensions: dict[str, Any] = {"requestId": request_id}
    if isinstance(original, GraphmemError):
        extensions["code"] = original.code
        field = getattr(original, "field", None)
        if field:
            extensions["field"] = field
        message = public_message(original)
    else:
        log.error("request %s: unexpected error in %s", request_id, error.path, exc_info=original)
        extensions["code"] = "INTERNAL"
        message = f"internal error (request id {request_id})"
    return GraphQLError(message, nodes=error.nodes, path=error.path, extensions=extensions)


class ErrorShaping(SchemaExtension):
    """Rewrites the errors of every operation as the module docstring says."""

    def on_operation(self) -> Iterator[None]:
        yield
        result = self.execution_context.result
        errors = getattr(result, "errors", None)
        if not errors:
            return
        context = self.execution_context.context
        request_id = getattr(context, "request_id", "-")
        shaped = [_shaped(e, request_id) for e in errors]
        result.errors = shaped  # type: ignore[union-attr]
        services = getattr(context, "services", None)
        if services is not None:
            for error in shaped:
                services.metrics.count_error(str((error.extensions or {}).get("code", "BAD_REQUEST")))
