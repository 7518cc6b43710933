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
from tests.storage.older_schemas import back_to

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
    path = tmp_path / "twenty.db"
    repo = await SqliteRepository.open(path)
    await repo.close()
    await back_to(path, 21)  # the schema before issue 44's two
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


async def test_a_server_holds_one_match_per_imported_game(repo: Repository) -> None:
    """An imported game's fingerprint (``import_key``) is found by its server only; a
    second match of it in that server is refused with ``Conflict`` and nothing stored
    (two imports racing), another server's is stored; matches played here have none."""
    from service import Conflict
    from tests.storage.test_contract import record
    first = await repo.create_match(record(guild=1, users=(WANG, LIU), import_key="r1:ab"))
    assert await repo.imported_match(1, "r1:ab") == first.id
    assert (await repo.load_match(first.id)).import_key == "r1:ab"  # type: ignore[union-attr]
    with pytest.raises(Conflict):
        await repo.create_match(record(guild=1, users=(WANG, LIU), import_key="r1:ab"))
    assert await repo.match_ids() == [first.id]
    elsewhere = await repo.create_match(record(guild=2, users=(WANG, LIU), import_key="r1:ab"))
    assert await repo.imported_match(2, "r1:ab") == elsewhere.id
    assert await repo.imported_match(1, "r1:cd") is None
    played = [await repo.create_match(record(guild=1)) for _ in range(2)]
    assert [m.import_key for m in played] == [None, None]
    assert await repo.imported_match(3, "r1:ab") is None


async def test_an_upgraded_sqlite_file_marks_the_imports_made_before_fingerprints(
        tmp_path: Path) -> None:
    """Migration 26 marks the matches every seat of which is an imported player
    ``match:<id>`` (found as imports, their record unknown), not a match played here nor
    one that continued an import (people play it, the imported players sit out)."""
    import dataclasses

    from service.computer_seats import COMPUTER_IDS
    from service.imported_seats import IMPORTED_IDS
    from storage.schema import IMPORTED_FROM, IMPORTED_TO
    from tests.storage.test_contract import record
    assert (IMPORTED_FROM, IMPORTED_TO) == (IMPORTED_IDS, COMPUTER_IDS)
    path = tmp_path / "twenty-five.db"
    repo = await SqliteRepository.open(path)
    imported = await repo.create_match(record(users=(WANG, LIU)))
    played = await repo.create_match(record(users=(11, 22)))
    continued = await repo.create_match(dataclasses.replace(
        record(users=(11, WANG)), continued_from=imported.id))
    await repo.close()
    await back_to(path, 25)
    repo = await SqliteRepository.open(path)
    try:
        assert await repo.schema_version() == len(MIGRATIONS)
        keys = [(await repo.load_match(m.id)).import_key  # type: ignore[union-attr]
                for m in (imported, played, continued)]
        assert keys == [f"match:{imported.id}", None, None]
        assert await repo.imported_match(1, f"match:{imported.id}") == imported.id
    finally:
        await repo.close()


async def test_db_copy_carries_the_imports_fingerprints_and_players_names(
        tmp_path: Path) -> None:
    """``tablero db copy`` copies every table and column: an import's fingerprint (still
    one per server in the copy) and its players' names (the copy left them behind)."""
    from service import Conflict
    from storage.copy import TABLE_ORDER, copy_database
    from storage.schema import TABLES
    from tests.storage.test_contract import record
    # every table but the running processes' (leases, the lock) and SQLite's own
    assert set(TABLE_ORDER) == TABLES - {"shard_leases", "process_lock", "sqlite_sequence"}
    source = await SqliteRepository.open(tmp_path / "source.db")
    target = await SqliteRepository.open(tmp_path / "target.db")
    try:
        stored = await source.create_match(record(users=(WANG, LIU), import_key="r1:ab"))
        await source.name_imported_players({WANG: "Wang Tianyi", LIU: "Liu Dahua"})
        counts = await copy_database(source, target)
        assert counts["imported_players"] == 2
        assert await target.load_match(stored.id) == stored
        assert await target.imported_match(1, "r1:ab") == stored.id
        assert await target.imported_player_names([WANG, LIU]) == {WANG: "Wang Tianyi",
                                                                   LIU: "Liu Dahua"}
        with pytest.raises(Conflict):
            await target.create_match(record(users=(WANG, LIU), import_key="r1:ab"))
    finally:
        await source.close()
        await target.close()


async def test_a_servers_unfinished_imports_newest_first(repo: Repository) -> None:
    """``/continue``'s suggestions read the server's imports its record leaves
    unfinished (``aborted``), newest first, at most as many as asked: not a finished
    import, not a match played here, never another server's."""
    from service import MatchStatus
    from tests.storage.test_contract import record
    aborted, finished = MatchStatus.ABORTED, MatchStatus.FINISHED
    made = [await repo.create_match(record(guild=guild, users=(WANG, LIU), status=status,
                                           import_key=key))
            for guild, status, key in [(1, aborted, "r1:a"), (1, finished, "r1:b"),
                                       (2, aborted, "r1:a"), (1, aborted, "r1:c")]]
    await repo.create_match(record(guild=1, status=aborted))  # played here, abandoned
    found = await repo.unfinished_imports(1, 10)
    assert [m.id for m in found] == [made[3].id, made[0].id]
    assert found[0] == await repo.load_match(made[3].id)
    assert [m.id for m in await repo.unfinished_imports(1, 1)] == [made[3].id]
    assert [m.id for m in await repo.unfinished_imports(2, 10)] == [made[2].id]
    assert await repo.unfinished_imports(3, 10) == []


async def test_imports_stored_before_fingerprints_get_theirs(repo: Repository) -> None:
    """The imports migration 26 marked ``match:<id>`` are found by server, oldest first,
    and take their fingerprint once: not one another match of the server holds, not
    over a fingerprint that changed meanwhile."""
    from tests.storage.test_contract import record
    older = [await repo.create_match(record(guild=guild, users=(WANG, LIU),
                                            import_key=f"match:{n}"))
             for n, guild in ((1, 1), (2, 1), (3, 2))]
    await repo.create_match(record(guild=1, users=(WANG, LIU), import_key="r1:new"))
    assert [m.id for m in await repo.unkeyed_imports(1)] == [older[0].id, older[1].id]
    assert await repo.set_import_key(older[0].id, "match:1", "r1:a")
    assert not await repo.set_import_key(older[1].id, "match:2", "r1:a")  # held
    assert not await repo.set_import_key(older[1].id, "match:9", "r1:b")  # not what it was
    assert not await repo.set_import_key(older[1].id, "match:2", "r1:new")
    assert await repo.set_import_key(older[1].id, "match:2", "r1:a#2")
    assert await repo.unkeyed_imports(1) == []
    assert [m.id for m in await repo.unkeyed_imports(2)] == [older[2].id]
    assert await repo.set_import_key(older[2].id, "match:3", "r1:a")  # another server's
    assert await repo.imported_match(1, "r1:a") == older[0].id
    assert (await repo.load_match(older[1].id)).import_key == "r1:a#2"  # type: ignore[union-attr]


async def played_and_imported_before_27(repo: Repository) -> tuple[int, str, int, str]:
    """On ``repo``: a damas match played to its end (a resignation) and a Xiangqi record
    imported, the import's fingerprint one of version 1 (hashing the start's text), as a
    database migration 27 upgrades holds them: the played match, its ``/history``
    export, the import and its record (the played match's fingerprint is taken away by
    undoing 27)."""
    from service import MatchService
    from tests.service.conftest import Recorder, SetClock, finishing_game, start_match
    from tests.service.test_import import RECORDS
    service = MatchService(repo, Recorder(), SetClock())
    m = await start_match(service, "damas")
    for text in (finishing_game("damas", {}, 4) or [])[:3]:
        m = (await service.move(m.id, m.to_move[0], text)).match
    m = await service.resign(m.id, m.to_move[0])
    await service.explorer_idle()
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text()
    imported = (await service.import_record(1, 2, 3, wxf)).match.id
    rec = await repo.load_match(imported)
    assert rec is not None and rec.import_key is not None
    assert await repo.set_import_key(imported, rec.import_key, "r1:" + "0" * 64)
    return m.id, (await service.history(m.id)).export, imported, wxf


async def refused_after_27(repo: Repository, played: int, export: str, imported: int,
                           wxf: str) -> None:
    """After migration 27: the played match's export and the import's record, imported
    again in their server, are refused naming them (their fingerprints worked out at
    that import); the import's is of version 2 now."""
    from service import MatchService
    from service.importer import AlreadyImported
    from tests.service.conftest import GUILD, Recorder, SetClock
    assert (await repo.load_match(imported)).import_key == \
        f"match:{imported}"  # type: ignore[union-attr]
    service = MatchService(repo, Recorder(), SetClock())
    with pytest.raises(AlreadyImported) as refused:
        await service.import_record(GUILD, 2, 3, export)
    assert (refused.value.match_id, refused.value.played) == (played, True)
    with pytest.raises(AlreadyImported) as refused:
        await service.import_record(1, 2, 3, wxf)
    assert (refused.value.match_id, refused.value.played) == (imported, False)
    assert (await repo.load_match(imported)).import_key.startswith(  # type: ignore[union-attr]
        "r2:")


async def test_an_upgraded_sqlite_file_still_refuses_its_played_games_and_imports(
        tmp_path: Path) -> None:
    """A database from before migration 27: its played matches have no fingerprint and
    its imports one of version 1; importing either again is still refused."""
    path = tmp_path / "twenty-six.db"
    repo = await SqliteRepository.open(path)
    try:
        before = await played_and_imported_before_27(repo)
    finally:
        await repo.close()
    await back_to(path, 26)
    repo = await SqliteRepository.open(path)
    try:
        assert await repo.schema_version() == len(MIGRATIONS) >= 27  # 27 on ran
        await refused_after_27(repo, *before)
    finally:
        await repo.close()
