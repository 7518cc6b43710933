"""The tournament part of the repository contract, for memory, SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from service import Conflict, Repository
from service.tournament_records import TournamentGame, TournamentRecord, TournamentStatus
from service.tournaments import Format, Result
from storage import SqliteRepository
from tests.conftest import REPOSITORY_KINDS, open_repository_of

NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


def tournament(guild: int = 1, **kw: object) -> TournamentRecord:
    base = TournamentRecord(
        id=0, guild_id=guild, channel_id=5, organiser_id=9, name="Spring Swiss",
        game="querni", options={"setup": "random"}, format=Format.SWISS, rounds=4,
        days_per_move=3, rated=True, cap=16, registration_deadline=NOW, vacation=False,
        status=TournamentStatus.REGISTRATION, players=(3, 1, 2), created_at=NOW)
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


async def test_a_tournament_round_trips_with_its_games(repo: Repository) -> None:
    t = await repo.create_tournament(tournament())
    assert t.id > 0 and t.version == 1
    games = (TournamentGame(1, 3, 1, Result.DRAW, match_id=40),
             TournamentGame(1, 2, None, Result.BYE),
             TournamentGame(2, 1, 2, None, replay=1, timed_out=None, match_id=41))
    after = dataclasses.replace(t, status=TournamentStatus.RUNNING, games=games, round=2,
                                withdrawn=(3,))
    saved = await repo.save_tournament(t, after)
    assert saved.version == 2
    loaded = await repo.load_tournament(t.id)
    assert loaded == saved
    assert await repo.tournament_of_match(41) == t.id
    assert await repo.tournament_of_match(99) is None
    assert await repo.load_tournament(t.id + 100) is None


async def test_saving_is_compare_and_set(repo: Repository) -> None:
    t = await repo.create_tournament(tournament())
    await repo.save_tournament(t, dataclasses.replace(t, players=(1,)))
    with pytest.raises(Conflict):
        await repo.save_tournament(t, dataclasses.replace(t, players=(2,)))
    loaded = await repo.load_tournament(t.id)
    assert loaded is not None and loaded.players == (1,)


async def test_tournaments_are_listed_by_guild_and_status(repo: Repository) -> None:
    a = await repo.create_tournament(tournament(1))
    b = await repo.create_tournament(tournament(1))
    c = await repo.create_tournament(tournament(2))
    await repo.save_tournament(b, dataclasses.replace(b, status=TournamentStatus.FINISHED))
    assert [t.id for t in await repo.tournaments_in(1)] == [b.id, a.id]
    assert [t.id for t in await repo.tournaments_in(
        1, [TournamentStatus.REGISTRATION])] == [a.id]
    assert {t.id for t in await repo.tournaments_in(None)} == {a.id, b.id, c.id}


async def test_tournaments_survive_a_reopen(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "t.db")
    t = await repo.create_tournament(tournament())
    await repo.close()
    again = await SqliteRepository.open(tmp_path / "t.db")
    assert await again.load_tournament(t.id) == t
    await again.close()


async def test_a_bank_control_and_claim_win_round_trip(repo: Repository) -> None:
    from service.timecontrol import parse_time_control
    t = await repo.create_tournament(tournament(
        bank=parse_time_control("3d+1d/10d"), claim_win=True, days_per_move=3))
    loaded = await repo.load_tournament(t.id)
    assert loaded == t and loaded.bank == parse_time_control("3d+1d/10d")
    assert loaded.claim_win and loaded.control.is_bank
    after = dataclasses.replace(t, bank=None, claim_win=False, days_per_move=5)
    saved = await repo.save_tournament(t, after)
    again = await repo.load_tournament(t.id)
    assert again == saved and again.bank is None and not again.claim_win
    assert again.control == parse_time_control("5")


def test_a_body_stored_before_tournament_clocks_reads_as_days_per_move() -> None:
    import json

    from storage.tournaments import tournament_body, tournament_of
    body = json.loads(tournament_body(tournament(days_per_move=6)))
    assert "bank" not in body and "claim_win" not in body  # as bodies were written then
    old = tournament_of(4, 1, "running", json.dumps(body), 2)
    assert old.bank is None and not old.claim_win and old.control.per_move is not None
    assert old.control.per_move.days == 6
