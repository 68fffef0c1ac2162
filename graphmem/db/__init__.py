"""Neo4j access: the Store gateway, schema install and the embedded launcher."""

from graphmem.db.schema import SchemaReport, install_schema
from graphmem.db.store import QueryVector, ServerInfo, Store

__all__ = ["QueryVector", "SchemaReport", "ServerInfo", "Store", "install_schema"]
