"""The blocks table (migration 29, ``storage.blocks``): an SQLite file of schema 28 gets
it, and ``tablero db copy`` carries its rows (the stores' behaviour is the service's
tests', tests/service/test_blocks.py, on memory, SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from service.records import Follow
from storage import SqliteRepository
from storage.copy import copy_database
from storage.schema import MIGRATIONS
from tests.storage.older_schemas import back_to

NOW = datetime(2026, 11, 30, tzinfo=UTC)


async def test_a_schema_28_file_gets_blocks_and_a_copy_carries_them(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    await (await SqliteRepository.open(old)).close()
    await back_to(old, 28)
    repo = await SqliteRepository.open(old)
    target = await SqliteRepository.open(tmp_path / "copy.db")
    try:
        assert await repo.schema_version() == len(MIGRATIONS) >= 29  # 29 (blocks) on ran
        await repo.add_follow(Follow(22, 1, player_id=11))
        await repo.add_follow(Follow(33, 1, player_id=11))
        assert await repo.add_block(11, 22, NOW)
        assert not await repo.add_block(11, 22, NOW)
        assert [f.user_id for f in await repo.follows_of(22, 1)] == []  # his follow ended
        assert [f.user_id for f in await repo.follows_of(33, 1)] == [33]
        assert (await copy_database(repo, target))["blocks"] == 1
        assert await target.blocked_by(11) == [22]
        assert await target.blockers_of(22, [11, 33]) == [11]
    finally:
        await repo.close()
        await target.close()
