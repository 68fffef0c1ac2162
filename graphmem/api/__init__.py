"""The GraphQL service."""

from graphmem.api.app import create_app
from graphmem.api.context import Services
from graphmem.api.schema import schema

__all__ = ["Services", "create_app", "schema"]
