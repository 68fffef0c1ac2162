"""An index still building after the wait is named in one line, never a driver stack trace."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j.exceptions import ClientError

from graphmem.db.schema import await_indexes
from graphmem.db.store import Store
from graphmem.errors import ConfigError


class BuildingStore(Store):
    """No server: awaitIndexes times out while `populating` is what SHOW INDEXES reports."""

    def __init__(self, populating: list[dict[str, Any]]) -> None:
        self.populating = populating
        self.waited: list[int] = []

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if name == "schema/await_indexes":
            self.waited.append(params["seconds"])
            raise ClientError._hydrate_neo4j(
                code="Neo.ClientError.Procedure.ProcedureCallFailed",
                message="Failed to invoke procedure `db.awaitIndexes`: ... Expected all indexes to come online",
            )
        assert name == "schema/populating_indexes"
        return self.populating


def test_an_index_still_building_is_named_with_its_progress() -> None:
    store = BuildingStore([{"name": "semantic_embedding", "state": "POPULATING", "populationPercent": 31.0}])
    with pytest.raises(ConfigError) as raised:
        await_indexes(store, 60)
    message = str(raised.value)
    assert "semantic_embedding populating 31 %" in message and "after 60 s" in message
    assert "\n" not in message and store.waited == [60]


def test_a_failure_with_every_index_online_is_not_hidden() -> None:
    with pytest.raises(ClientError):
        await_indexes(BuildingStore([]), 60)
