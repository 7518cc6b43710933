"""Issue 44's storage on every repository: imported players' names stored by id (the
first spelling kept, only the ids asked for read back); a match created with its first
moves and the imported game it continues; a new database and an upgraded one both hold
the table and the column."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service import Repository
from service.imported_seats import imported_player
from storage import SqliteRepository
from storage.sqlite import MIGRATIONS
from tests.conftest import REPOSITORY_KINDS, open_repository_of

WANG, LIU = imported_player("Wang Tianyi", 0), imported_player("Liu Dahua", 1)


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


async def test_names_are_stored_and_the_first_spelling_stays(repo: Repository) -> None:
    assert await repo.imported_player_names([WANG, LIU]) == {}
    await repo.name_imported_players({WANG: "Wang Tianyi", LIU: "柳大华"})
    await repo.name_imported_players({WANG: "WANG TIANYI", 7: "Seven"})
    await repo.name_imported_players({})
    assert await repo.imported_player_names([WANG, LIU, 8]) == {WANG: "Wang Tianyi",
                                                                LIU: "柳大华"}
    assert await repo.imported_player_names([7, 7]) == {7: "Seven"}
    assert await repo.imported_player_names([]) == {}


async def test_an_upgraded_sqlite_file_gets_the_table_and_the_column(tmp_path: Path) -> None:
    import sqlite3
    path = tmp_path / "twenty.db"
    repo = await SqliteRepository.open(path)
    await repo.close()
    from tests.storage.test_contract import undo_migration_24, undo_migration_25
    conn = sqlite3.connect(path)
    undo_migration_25(conn)  # (question posts and puzzles: the migrations after these two)
    undo_migration_24(conn)
    conn.execute("DROP TABLE imported_players")  # back to the schema before issue 44's two
    conn.execute("ALTER TABLE matches DROP COLUMN continued_from")
    conn.execute("PRAGMA user_version = 21")
    conn.commit()
    conn.close()
    repo = await SqliteRepository.open(path)
    assert await repo.schema_version() == len(MIGRATIONS)
    await repo.name_imported_players({LIU: "Liu Dahua"})
    assert await repo.imported_player_names([LIU]) == {LIU: "Liu Dahua"}
    from tests.storage.test_contract import record
    stored = await repo.create_match(record(continued_from=7))
    assert (await repo.load_match(stored.id)) == stored
    await repo.close()


async def test_a_match_is_created_with_its_first_moves_and_what_it_continues(
        repo: Repository) -> None:
    """A continued imported game is stored in one go: the match, the imported moves it
    starts with, and the game it continues (read back with it)."""
    import dataclasses
    from datetime import UTC, datetime

    from service import RecordEntry
    from tests.storage.test_contract import record
    at = datetime(2026, 3, 1, tzinfo=UTC)
    moves = [RecordEntry(0, 0, "h3-e3", WANG, at), RecordEntry(1, 1, "h10-g8", LIU, at)]
    source = await repo.create_match(record(users=(WANG, LIU)), entries=moves)
    rec = dataclasses.replace(record(users=(11, 22)), ply=2, continued_from=source.id)
    stored = await repo.create_match(rec, entries=moves)
    loaded = await repo.load_match(stored.id)
    assert loaded == stored and loaded.continued_from == source.id
    assert await repo.load_entries(stored.id) == moves
    assert (await repo.load_match(source.id)).continued_from is None  # type: ignore[union-attr]
