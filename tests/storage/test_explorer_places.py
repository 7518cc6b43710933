"""The explorer's places kept by mark (migration 28) and when each was last used
(migration 30), on every store: a use dates a place anew, the removal takes the places
unused since a time and no more than asked; a database upgraded from schema 29 dates its
places at the first removal; ``tablero db copy`` carries the dates."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from service import Repository
from storage import SqliteRepository
from storage.copy import copy_database
from tests.conftest import REPOSITORY_KINDS, open_repository_of
from tests.storage.older_schemas import back_to

T = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


async def test_places_unused_since_a_time_are_removed_a_use_dates_one_anew(
        repo: Repository) -> None:
    for n in range(4):
        await repo.keep_explorer_place(f"#old{n}", 1, f"place {n}", T - 40 * DAY)
    await repo.keep_explorer_place("#new", 1, "new place", T)
    await repo.keep_explorer_place("#old0", 2, "another", T - DAY)  # used again (the
    # mark is of its server and place: the first ones stay)
    assert await repo.prune_explorer_places(T - 30 * DAY, T, 2) == 2  # no more than asked
    assert await repo.prune_explorer_places(T - 30 * DAY, T, 5) == 1
    assert await repo.prune_explorer_places(T - 30 * DAY, T, 5) == 0
    assert [await repo.explorer_place(f"#old{n}", 1) for n in range(4)] == \
        ["place 0", None, None, None]
    assert await repo.explorer_place("#new", 1) == "new place"
    assert await repo.prune_explorer_places(T + DAY, T + DAY, 0) == 0
    assert await repo.prune_explorer_places(T + DAY, T + DAY, 5) == 2
    assert await repo.explorer_place("#new", 1) is None


async def test_a_removal_with_nothing_to_remove_only_reads(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The sweep looks hourly: with nothing unused, a read and no write transaction (no
    write lock taken, nothing written on a full disk)."""
    repo = await SqliteRepository.open(tmp_path / "t.db")
    try:
        await repo.keep_explorer_place("#new", 1, "new place", T)
        writes: list[object] = []
        transaction = repo._transaction

        async def counted(body: Any) -> Any:
            writes.append(body)
            return await transaction(body)
        monkeypatch.setattr(repo, "_transaction", counted)
        assert await repo.prune_explorer_places(T - 30 * DAY, T, 10) == 0
        assert writes == []
        assert await repo.prune_explorer_places(T + DAY, T + DAY, 10) == 1
        assert len(writes) == 1
    finally:
        await repo.close()


async def test_an_upgraded_database_dates_its_places_at_the_first_removal(
        tmp_path: Path) -> None:
    """The places kept before migration 30 have no date: the first removal dates them
    then, so they are kept as long from there as a place used then."""
    path = tmp_path / "twenty-nine.db"
    repo = await SqliteRepository.open(path)
    await repo.keep_explorer_place("#before", 1, "kept before", T - 400 * DAY)
    await repo.close()
    await back_to(path, 29)
    repo = await SqliteRepository.open(path)
    try:
        assert await repo.explorer_place("#before", 1) == "kept before"
        assert await repo.prune_explorer_places(T - 30 * DAY, T, 10) == 0
        assert await repo.prune_explorer_places(T - DAY, T + 29 * DAY, 10) == 0
        assert await repo.explorer_place("#before", 1) == "kept before"
        assert await repo.prune_explorer_places(T + DAY, T + 31 * DAY, 10) == 1
        assert await repo.explorer_place("#before", 1) is None
    finally:
        await repo.close()


async def test_db_copy_carries_when_each_place_was_used(tmp_path: Path) -> None:
    source = await SqliteRepository.open(tmp_path / "source.db")
    target = await SqliteRepository.open(tmp_path / "target.db")
    try:
        await source.keep_explorer_place("#old", 1, "old place", T - 40 * DAY)
        await source.keep_explorer_place("#new", 1, "new place", T)
        assert (await copy_database(source, target))["explorer_places"] == 2
        assert await target.prune_explorer_places(T - 30 * DAY, T, 10) == 1
        assert [await target.explorer_place(m, 1) for m in ("#old", "#new")] == \
            [None, "new place"]
    finally:
        await source.close()
        await target.close()
