"""Migration 31: the early agreed draws of a running tournament, scored a played draw
(``1/2-1/2``) before such draws were scored apart, are scored ``=/=``
(``Result.DRAW_UNPLAYED``) as its new ones are; a draw played over the board stays one,
and a finished tournament keeps the standings it announced. On SQLite and PostgreSQL,
each database taken back to schema 30 (``older_schemas``, whose undo scores the running
tournaments' early draws as played ones again)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from service import MatchService, MatchStatus, Repository
from service.early_ends import DRAW_AGREED_EARLY
from service.tournaments import Result
from storage import PostgresRepository, SqliteRepository
from storage.schema import EARLY_DRAW_WORDS, MIGRATIONS
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    EVE,
    GUILD,
    Recorder,
    SetClock,
)
from tests.storage.older_schemas import back_to

ORGANISER = 900


def test_the_migration_knows_the_early_draws_words() -> None:
    assert EARLY_DRAW_WORDS == DRAW_AGREED_EARLY


async def _round_robin(service: MatchService, *players: int) -> int:
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr")
    for user in players:
        await service.join_tournament(t.id, user)
    return (await service.start_tournament(t.id, ORGANISER)).id


async def _draw(service: MatchService, tid: int, *, moves: tuple[str, ...] = ()) -> None:
    """Each of the tournament's games under way drawn by agreement (after ``moves``)."""
    t = await service.get_tournament(tid)
    for g in t.games:
        if g.match_id is None or g.result is not None:
            continue
        for move in moves:
            m = await service.get_match(g.match_id)
            await service.move(g.match_id, m.to_move[0], move)
        m = await service.get_match(g.match_id)
        first = m.players()[0]
        await service.offer_draw(g.match_id, first)
        await service.accept_draw(g.match_id, next(u for u in m.players() if u != first))


async def _as_before_31(repo: Repository) -> tuple[int, int]:
    """A running round robin (two early agreed draws, then draws played over the board)
    and a finished one (its one game an early draw), their early draws scored as a
    database of before migration 31 holds them (``1/2-1/2``; the running one's match in
    the older words, "aborted: draw agreed …"): the two tournaments' ids."""
    service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(3))
    running = await _round_robin(service, ALICE, BOB, CAROL, DAVE)
    await _draw(service, running)  # round 1: before anyone moved
    await _draw(service, running, moves=("h3-e3", "h8-e8"))  # round 2: played
    finished = await _round_robin(service, ALICE, EVE)
    await _draw(service, finished)
    for tid in (running, finished):
        t = await repo.load_tournament(tid)
        assert t is not None
        games = tuple(dataclasses.replace(g, result=Result.DRAW)
                      if g.result is Result.DRAW_UNPLAYED else g for g in t.games)
        await repo.save_tournament(t, dataclasses.replace(t, games=games))
    t = await repo.load_tournament(running)
    assert t is not None and t.status.value == "running"
    early = await repo.load_match(t.games[0].match_id or 0)
    assert early is not None and early.result is not None
    assert early.status is MatchStatus.ABORTED
    await repo.save(early, dataclasses.replace(early, result=dataclasses.replace(
        early.result, reason=f"aborted: {DRAW_AGREED_EARLY}")))
    return running, finished


async def _scored_after_31(repo: Repository, running: int, finished: int) -> None:
    assert await repo.schema_version() == len(MIGRATIONS) >= 31
    t = await repo.load_tournament(running)
    assert t is not None
    drawn = [g.result for g in t.games if g.match_id is not None]
    assert drawn[:4] == [Result.DRAW_UNPLAYED] * 2 + [Result.DRAW] * 2  # early ones apart
    service = MatchService(repo, Recorder(), SetClock())
    rows = await service.tournament_standings(running)
    assert [(r.draws_unplayed, r.draws, r.played) for r in rows] == [(1, 1, 1)] * 4
    ended = await repo.load_tournament(finished)
    assert ended is not None and ended.status.value == "finished"
    assert [g.result for g in ended.games] == [Result.DRAW]  # as it ended and announced


async def test_sqlite_scores_a_running_tournaments_old_early_draws_apart(
        tmp_path: Path) -> None:
    path = tmp_path / "thirty.db"
    repo = await SqliteRepository.open(path)
    try:
        ids = await _as_before_31(repo)
    finally:
        await repo.close()
    await back_to(path, 30)
    repo = await SqliteRepository.open(path)
    try:
        await _scored_after_31(repo, *ids)
    finally:
        await repo.close()


async def test_postgres_scores_a_running_tournaments_old_early_draws_apart(
        postgres_url: str) -> None:
    repo = await PostgresRepository.open(postgres_url)
    try:
        ids = await _as_before_31(repo)
    finally:
        await repo.close()
    await back_to(postgres_url, 30)
    repo = await PostgresRepository.open(postgres_url)
    try:
        await _scored_after_31(repo, *ids)
    finally:
        await repo.close()
