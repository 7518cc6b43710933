"""Tournament ends without games played over the board, on every repository: a tournament
of forfeits and byes alone still posts its final standings, and an early resignation or
timeout recorded after a stop is read from the stored result (not guessed)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from service import MatchService, MatchStatus, Repository
from service.events import StandingsChanged
from service.outbox import event_of
from service.tournament_records import TournamentStatus
from service.tournaments import Result
from tests.service.conftest import CHANNEL, GUILD, Recorder, SetClock

ORGANISER = 900


async def test_a_tournament_of_forfeits_alone_announces_its_final_standings(
        service: MatchService, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        name="Empty")
    for p in (1, 2):
        await service.join_tournament(t.id, p)

    # the process stops right after round 1 is written, before its match is made; then
    # player 2 withdraws: the game is forfeited and no match was ever played
    async def stopped(tid: int) -> None:
        return None
    monkeypatch.setattr(service._tournaments, "_make_matches", stopped)
    t = await service.start_tournament(t.id, ORGANISER)
    [game] = t.games_of_round(1)
    assert game.match_id is None
    t = await service.leave_tournament(t.id, 2)
    assert t.status is TournamentStatus.FINISHED
    assert all(g.match_id is None for g in t.games)

    [final] = [e for e in recorder.of(StandingsChanged) if isinstance(e, StandingsChanged)]
    assert final.final and final.winner == 1 and final.tournament_id == t.id
    assert final.channel_id == CHANNEL and final.match.channel_id == CHANNEL
    [stored] = [e for e in await service.repository.pending_outbox(limit=100)
                if e.kind == "standings"]
    assert stored.match_id == -GUILD and stored.version == -t.id  # the notice lane
    assert event_of(stored) == final


@pytest.mark.parametrize("how", ["resign", "timeout"])
async def test_after_a_stop_an_early_leaver_is_read_from_the_stored_result(
        repo: Repository, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    clock = SetClock()
    service = MatchService(repo, Recorder(), clock, rng=random.Random(1))
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        days=1)
    for p in (1, 2):
        await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, ORGANISER)
    [game] = t.games_of_round(1)
    assert game.match_id is not None and game.second is not None
    leaver = game.second  # the second player (seat 1) leaves before anyone moved

    # the tournament's record of the end is lost (a stop): only the match is stored
    real = repo.save_tournament

    async def dead(*args: object, **kwargs: object) -> None:
        raise RuntimeError("process stopped")
    monkeypatch.setattr(repo, "save_tournament", dead)
    if how == "resign":
        await service.resign(game.match_id, leaver)
    else:  # the first player moves; the second never does
        p, _ = await service.position(game.match_id)
        mv = next(iter(p.legal_moves()))
        await service.move(game.match_id, game.first, p.variant.format_move(p, mv))
        clock.advance(days=2)
        with pytest.raises(RuntimeError):  # the timeout is stored; then the stop
            await service.sweep()
    monkeypatch.setattr(repo, "save_tournament", real)
    rec = await repo.load_match(game.match_id)
    assert rec is not None and rec.status is MatchStatus.ABORTED and rec.result is not None
    assert (rec.result.left_by, rec.result.left_how) == (leaver, how)

    # the reason is words for people (it may be reworded or translated): the sweep must
    # not read it, nor guess from whose turn it was
    async def rewritten() -> None:
        assert rec is not None and rec.result is not None
        changed = dataclasses.replace(rec, result=dataclasses.replace(
            rec.result, reason="aborted: (reworded)"),
            position_text=rec.start_text)  # seat 0 to move: a guess would blame him
        await repo.save(rec, changed)
    await rewritten()

    again = MatchService(repo, Recorder(), clock, rng=random.Random(2))
    await again.sweep()
    t = await again.get_tournament(t.id)
    [done] = t.games_of_round(1)
    assert done.result is Result.FIRST_WINS_FORFEIT
    assert done.timed_out == (leaver if how == "timeout" else None)


@pytest.mark.parametrize("how", ["resign", "timeout"])
async def test_an_old_early_leaver_is_read_from_the_stored_match_before_the_words(
        repo: Repository, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """A match aborted before its result kept who left (older databases): a timeout is
    the player to move's (the stored position says so); only a resignation is read from
    the words, by their shape: Black's name, "Red resigned", holds a colour and a verb
    that searching the words found (it blamed Red, or called a timeout a resignation)."""
    clock = SetClock()
    service = MatchService(repo, Recorder(), clock, rng=random.Random(1))
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        days=1)
    for p in (1, 2):
        await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, ORGANISER)
    [game] = t.games_of_round(1)
    assert game.match_id is not None and game.second is not None
    leaver = game.second  # Black, seat 1

    real = repo.save_tournament

    async def dead(*args: object, **kwargs: object) -> None:
        raise RuntimeError("process stopped")
    monkeypatch.setattr(repo, "save_tournament", dead)
    if how == "resign":  # before anyone moved: Red is to move, Black resigns
        await service.resign(game.match_id, leaver)
    else:  # Red moves; Black never does
        p, _ = await service.position(game.match_id)
        mv = next(iter(p.legal_moves()))
        await service.move(game.match_id, game.first, p.variant.format_move(p, mv))
        clock.advance(days=2)
        with pytest.raises(RuntimeError):
            await service.sweep()
    monkeypatch.setattr(repo, "save_tournament", real)
    rec = await repo.load_match(game.match_id)
    assert rec is not None and rec.result is not None
    verb = "resigned" if how == "resign" else "ran out of time"
    old = dataclasses.replace(rec, result=dataclasses.replace(
        rec.result, left_by=None, left_how=None,
        reason=f"aborted: Red resigned (Black) {verb} before every player had moved"))
    await repo.save(rec, old)

    again = MatchService(repo, Recorder(), clock, rng=random.Random(2))
    await again.sweep()
    [done] = (await again.get_tournament(t.id)).games_of_round(1)
    assert done.result is Result.FIRST_WINS_FORFEIT  # Black left, never Red
    assert done.timed_out == (leaver if how == "timeout" else None)


async def test_a_broken_game_is_played_again_not_scored(service: MatchService) -> None:
    """A match whose record no longer replays (``MatchStatus.BROKEN``) is nobody's
    doing and says nothing of how the game would have ended: its tournament game is
    played again in a new match (the same pairing and colours), never scored as a
    draw (``Tournaments._replayed``)."""
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr")
    for p in (1, 2):
        await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, ORGANISER)
    [game] = t.games_of_round(1)
    assert game.match_id is not None
    rec = await service.repository.load_match(game.match_id)
    assert rec is not None
    await service.core.mark_broken(rec, "entry 1 ('a1-a2') does not replay")
    t = await service.get_tournament(t.id)
    [again] = t.games_of_round(1)
    assert again.result is None and again.match_id not in (None, game.match_id)
    assert (again.first, again.second, again.round) == (game.first, game.second, 1)
    assert again.match_id is not None
    m = await service.get_match(again.match_id)
    assert m.status is MatchStatus.ACTIVE and m.seats[0].user_id == game.first
    rows = await service.tournament_standings(t.id)
    assert [(r.points, r.played, r.draws) for r in rows] == [(0.0, 0, 0)] * 2
    assert (await service.get_match(game.match_id)).status is MatchStatus.BROKEN
