"""Issue 41: /readyz of the bot on a real PostgreSQL server stopped mid-test: 503 naming
the database while it is down, and 200 again by itself once it is back.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import PostgresRepository
from tests.discordapp.conftest import World
from tests.discordapp.test_operations import serving
from tests.outages import ServerDown


@pytest.fixture
async def postgres_repository(request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    _server, url = request.getfixturevalue("restartable_postgres_url")
    repo = await PostgresRepository.open(url)
    yield repo
    await repo.close()


@pytest.fixture
def repository(postgres_repository: Any) -> Any:
    return postgres_repository


async def test_a_stopped_database_turns_readyz_503_naming_it_and_it_comes_back(
        world: World, request: pytest.FixtureRequest) -> None:
    server, _url = request.getfixturevalue("restartable_postgres_url")
    down = ServerDown(server)
    async with serving(world) as scraper:
        await scraper.until(200)
        await down.begin()
        try:
            body = await scraper.until(503)
            assert "database: DatabaseUnreachable" in body, body
            assert await scraper.value("tablero_ready_condition", condition="database") == 0
            assert await scraper.value("tablero_storage_errors_total",
                                       kind="DatabaseUnreachable") >= 1
        finally:
            await down.end()
        body = await scraper.until(200)  # by itself: the pool reconnects
        assert "database: ok" in body
