"""The puzzle store (issue 44) on memory, SQLite and PostgreSQL (for real): a match is mined
once (its puzzles with it, in one transaction), the last hour's count, a player never
offered a puzzle of a match he sat in nor one he tried, the closest rating first, the
player's row compare-and-set on its version (the try and the puzzle's rating with it),
the leaderboard's order, and the daily post's compare-and-set with its outbox entry."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from service import Repository
from service.records import (
    MatchStatus,
    OutboxEntry,
    PuzzlePlayer,
    PuzzleRecord,
    PuzzleTry,
)
from tests.conftest import REPOSITORY_KINDS, open_repository_of
from tests.storage.test_contract import T0, record


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


def puzzle(match_id: int, ply: int, mu: float = 25.0, guild: int = 1) -> PuzzleRecord:
    return PuzzleRecord(0, guild, "xiangqi", "xiangqi", match_id, ply, (11, 22),
                        f"position {ply}", ply % 2, ("h3-e3", "h10-g8", "h1-g3"), "material",
                        3, mu, 8.3, T0)


async def finished(repo: Repository, users: tuple[int, ...] = (11, 22)) -> int:
    return (await repo.create_match(record(users=users, status=MatchStatus.FINISHED))).id


async def test_a_match_is_mined_once_with_its_puzzles(repo: Repository) -> None:
    first, second = await finished(repo), await finished(repo)
    live = (await repo.create_match(record())).id
    assert await repo.unmined_matches(0, 10) == [first, second]  # finished ones only
    assert live not in await repo.unmined_matches(0, 10)
    stored = await repo.store_puzzles(first, 1, [puzzle(first, 4), puzzle(first, 9)], T0)
    assert stored is not None and [p.ply for p in stored] == [4, 9]
    assert stored[0].id != stored[1].id and stored[0].id > 0
    assert await repo.load_puzzle(stored[1].id) == stored[1]
    assert await repo.store_puzzles(first, 1, [puzzle(first, 12)], T0) is None  # once
    assert await repo.puzzle_count(1) == 2
    assert await repo.store_puzzles(second, 1, [], T0 + timedelta(minutes=59)) == []
    assert await repo.unmined_matches(0, 10) == []
    assert await repo.mined_since(T0) == 2
    assert await repo.mined_since(T0 + timedelta(minutes=30)) == 1
    assert await repo.load_puzzle(999) is None


async def test_candidates_leave_out_ones_own_matches_and_tried_puzzles(
        repo: Repository) -> None:
    theirs = await finished(repo, (11, 22))
    mine = await finished(repo, (33, 44))
    a, b = await repo.store_puzzles(theirs, 1, [puzzle(theirs, 2, mu=30.0),
                                                puzzle(theirs, 6, mu=24.0)], T0) or []
    (c,) = await repo.store_puzzles(mine, 1, [puzzle(mine, 3, mu=25.0)], T0) or []
    assert [p.id for p in await repo.puzzle_candidates(1, 33, 25.0, 10)] == [b.id, a.id]
    assert [p.id for p in await repo.puzzle_candidates(1, 55, 25.0, 10)] == [c.id, b.id, a.id]
    assert [p.id for p in await repo.puzzle_candidates(1, 55, 25.0, 1)] == [c.id]
    assert await repo.puzzle_candidates(2, 55, 25.0, 10) == []  # another server's
    player = PuzzlePlayer(1, 55, 25.0, 8.3, puzzle_id=c.id, rated=True)
    assert await repo.save_puzzle_player(None, player)
    assert not await repo.save_puzzle_player(None, player)  # he has a row now
    held = await repo.puzzle_player(1, 55)
    assert held is not None and held.version == 1 and held.puzzle_id == c.id and held.rated
    done = dataclasses.replace(held, puzzle_id=None, mu=27.0, solved=1, streak=1,
                               best_streak=1)
    tried = PuzzleTry(1, 55, c.id, True, True, T0)
    assert await repo.save_puzzle_player(held, done, tried, (23.0, 8.0))
    assert not await repo.save_puzzle_player(held, done, tried, (1.0, 1.0))  # stale version
    assert await repo.tried_puzzle(55, c.id) and not await repo.tried_puzzle(55, b.id)
    again = await repo.load_puzzle(c.id)
    assert again is not None and (again.mu, again.sigma) == (23.0, 8.0)
    assert [p.id for p in await repo.puzzle_candidates(1, 55, 25.0, 10)] == [b.id, a.id]
    now = await repo.puzzle_player(1, 55)
    assert now is not None and (now.version, now.mu, now.solved, now.puzzle_id) == \
        (2, 27.0, 1, None)


async def test_the_leaderboard_ranks_by_rating_players_who_tried(repo: Repository) -> None:
    for user, mu, tries in ((1, 30.0, 1), (2, 35.0, 0), (3, 28.0, 2), (4, 30.0, 1)):
        assert await repo.save_puzzle_player(None, PuzzlePlayer(1, user, mu, 5.0,
                                                                solved=tries))
    board = await repo.puzzle_leaderboard(1, 10)
    assert [p.user_id for p in board] == [1, 4, 3]  # no try, no place; ties by user id
    assert [p.user_id for p in await repo.puzzle_leaderboard(1, 2)] == [1, 4]
    assert await repo.puzzle_leaderboard(2, 10) == []


async def test_the_daily_post_is_compare_and_set_with_its_entry(repo: Repository) -> None:
    match_id = await finished(repo)
    first, second = await repo.store_puzzles(match_id, 1, [puzzle(match_id, 1),
                                                           puzzle(match_id, 5)], T0) or []
    assert await repo.daily_puzzle(1) is None
    await repo.set_daily_puzzle(1, 77, T0)
    assert await repo.daily_puzzle(1) == (77, T0)
    assert await repo.due_daily_puzzles(T0 - timedelta(seconds=1)) == []
    assert await repo.due_daily_puzzles(T0) == [(1, 77, T0)]
    assert [p.id for p in await repo.daily_candidates(1, 10)] == [second.id, first.id]
    entry = OutboxEntry(-1, 1, 5, 0, "daily-puzzle", "{}", T0)
    tomorrow = T0 + timedelta(days=1)
    assert await repo.advance_daily_puzzle(1, T0, tomorrow, second.id, [entry])
    assert not await repo.advance_daily_puzzle(1, T0, tomorrow, second.id, [entry])
    assert [e.kind for e in await repo.pending_outbox()] == ["daily-puzzle"]  # once
    assert [p.id for p in await repo.daily_candidates(1, 10)] == [first.id]
    posted = await repo.load_puzzle(second.id)
    assert posted is not None and posted.posted_at == T0
    await repo.set_daily_puzzle(1, None, None)
    assert await repo.daily_puzzle(1) is None and await repo.due_daily_puzzles(tomorrow) == []
    assert not await repo.advance_daily_puzzle(1, tomorrow, tomorrow, None, [])
