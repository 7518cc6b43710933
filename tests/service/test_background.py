"""The writes that follow a match's end in the background (its explorer count, its game's
fingerprint) at a stop: waited for, within a bound, and what a stop or a crash leaves undone
is done later (the explorer's first sweep, ``fingerprint_games``: ``tablero db
fingerprints``)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import rules
from service import MatchService, Repository
from service.background import Drained
from storage import MemoryRepository, SqliteRepository
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    Recorder,
    SetClock,
    finishing_game,
)
from tests.service.test_import import forget_game_keys

OPENING = (finishing_game("damas", {}, 4) or [])[:2]


async def played_to_the_end(service: MatchService, guild: int = GUILD) -> int:
    """A damas match of Alice and Bob in ``guild``: two moves, then a resignation."""
    m = await service.challenge(guild, CHANNEL, ALICE, "damas", opponents=[BOB], seat=0)
    m = await service.accept(m.id, BOB)
    for text in OPENING:
        m = (await service.move(m.id, m.to_move[0], text)).match
    return (await service.resign(m.id, ALICE)).id


def slowed(write: Callable[..., Awaitable[Any]], turns: int,
           gate: asyncio.Event | None = None) -> Callable[..., Awaitable[Any]]:
    """``write`` after ``turns`` turns of the event loop (or once ``gate`` opens)."""
    async def later(*args: Any, **kwargs: Any) -> Any:
        for _ in range(turns):
            await asyncio.sleep(0)
        if gate is not None:
            await gate.wait()
        return await write(*args, **kwargs)
    return later


async def written(repo: Repository, service: MatchService, match_id: int) -> tuple[int, bool]:
    """(the games the explorer holds, whether ``match_id``'s game is fingerprinted)."""
    rec = await repo.load_match(match_id)
    assert rec is not None
    return ((await service.explorer(GUILD, ALICE, "damas")).games,
            await repo.unkeyed_game_counts() == {})


async def test_a_stop_waits_for_the_count_and_the_fingerprint_under_way(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    repo = MemoryRepository()
    service = MatchService(repo, Recorder(), SetClock())
    monkeypatch.setattr(repo, "index_game", slowed(repo.index_game, 50))
    monkeypatch.setattr(repo, "set_game_keys", slowed(repo.set_game_keys, 50))
    ended = await played_to_the_end(service)
    assert await written(repo, service, ended) == (0, False)  # both still under way
    with caplog.at_level(logging.INFO, logger="service.background"):
        drained = await service.stop_background()
    assert drained == Drained(counts_done=1, keys_done=1)
    assert await written(repo, service, ended) == (1, True)
    assert "waited for 1 explorer count(s) and 1 fingerprint(s)" in caplog.text


async def test_a_stop_is_bounded_and_what_it_leaves_is_done_at_the_next_start(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Writes stuck for good: the stop gives up after its grace, cancels them and says
    how many in one line (no trace); the next process's first sweep counts the game in
    the explorer, and ``fingerprint_games`` fingerprints it."""
    repo = MemoryRepository()
    service = MatchService(repo, Recorder(), SetClock())
    never = asyncio.Event()
    with monkeypatch.context() as patch:
        patch.setattr(repo, "index_game", slowed(repo.index_game, 0, never))
        patch.setattr(repo, "set_game_keys", slowed(repo.set_game_keys, 0, never))
        ended = await played_to_the_end(service)
        with caplog.at_level(logging.INFO):
            drained = await asyncio.wait_for(service.stop_background(0.01), 5)
    assert drained == Drained(counts_left=1, keys_left=1)
    assert service._explorer.counting() == set() and service._importer.keying() == set()
    warned = [r for r in caplog.records if r.name == "service.background"]
    assert len(warned) == 1 and warned[0].levelno == logging.WARNING
    assert "1 explorer count(s) and 1 fingerprint(s) still being written" in \
        warned[0].getMessage()
    assert all(r.exc_info is None for r in caplog.records)  # never a trace
    assert await written(repo, service, ended) == (0, False)
    # the next start: the first sweep counts what was left; later sweeps look no more
    after = MatchService(repo, Recorder(), SetClock())
    looked: list[int] = []
    real_look = repo.unindexed_games

    async def look(after_id: int, limit: int) -> list[int]:
        looked.append(after_id)
        return await real_look(after_id, limit)
    monkeypatch.setattr(repo, "unindexed_games", look)
    await after.sweep()
    assert await written(repo, after, ended) == (1, False)
    await after.sweep()
    assert looked == [0]
    assert await after.fingerprint_games() == 1
    assert await written(repo, after, ended) == (1, True)


async def test_fingerprint_games_keys_every_servers_old_matches_once(
        service: MatchService, repo: Repository) -> None:
    """What ``tablero db fingerprints`` does, on every store: the played matches that
    ended without a fingerprint, in every server, with the progress as it goes; a
    second run finds none."""
    from service.importer import AlreadyImported
    ids = [await played_to_the_end(service), await played_to_the_end(service),
           await played_to_the_end(service, GUILD + 1)]
    await service.explorer_idle()
    await forget_game_keys(repo)
    assert await repo.unkeyed_game_counts() == {GUILD: 2, GUILD + 1: 1}
    shown: list[tuple[int, int]] = []
    assert await service.fingerprint_games(lambda done, total: shown.append((done, total))) \
        == 3
    assert shown[0] == (0, 3) and shown[-1] == (3, 3)
    assert await repo.unkeyed_game_counts() == {}
    with pytest.raises(AlreadyImported) as refused:  # recognised: no catch-up needed now
        await service.import_record(GUILD + 1, CHANNEL, ALICE,
                                    (await service.history(ids[2])).export)
    assert (refused.value.match_id, refused.value.played) == (ids[2], True)
    shown.clear()
    assert await service.fingerprint_games(lambda done, total: shown.append((done, total))) \
        == 0
    assert shown == []


async def test_fingerprint_games_reads_and_writes_a_batch_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tablero db fingerprints`` on SQLite: a batch of ``KEY_BATCH`` matches is two
    reads (the matches, then their records) and one write transaction of one statement,
    whatever its size, and a start the matches share is read once. It was a read and a
    written statement per match, each a round trip to SQLite's thread, and the start read
    (twice) per match (bench/bench_fingerprints.py)."""
    import service.importer
    monkeypatch.setattr(service.importer, "KEY_BATCH", 2)
    repo = await SqliteRepository.open(tmp_path / "t.db")
    try:
        service = MatchService(repo, Recorder(), SetClock())
        ids = [await played_to_the_end(service) for _ in range(5)]
        await service.explorer_idle()
        await service.stop_background()
        keyed = "SELECT id, game_key FROM matches ORDER BY id"
        keys = await repo._all(keyed)
        assert [k[0] for k in keys] == ids and all(k[1] for k in keys)
        await forget_game_keys(repo)
        calls: Counter[str] = Counter()
        for name in ("_all", "_exec", "_transaction"):
            monkeypatch.setattr(repo, name, counted(getattr(repo, name), calls, name))
        damas = rules.variant("damas")
        read_start = damas.from_text

        def reading(text: str) -> Any:
            calls["start read"] += 1
            return read_start(text)
        monkeypatch.setattr(damas, "from_text", reading)
        shown: list[tuple[int, int]] = []
        assert await service.fingerprint_games(lambda *done: shown.append(done)) == 5
        assert shown == [(0, 5), (2, 5), (4, 5), (5, 5)]  # after each batch
        # the counts, then per batch of 2, 2 and 1 two reads, then the read finding none;
        # per batch BEGIN, the one UPDATE and COMMIT; the start the matches share read once
        assert calls == {"_all": 1 + 3 * 2 + 1, "_transaction": 3, "_exec": 3 * 3,
                         "start read": 1}
        assert await repo._all(keyed) == keys  # the same fingerprints as at their end
    finally:
        await repo.close()


def counted(call: Callable[..., Awaitable[Any]], calls: Counter[str], name: str
            ) -> Callable[..., Awaitable[Any]]:
    async def counting(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return await call(*args, **kwargs)
    return counting


async def test_the_catch_up_takes_a_bounded_bite_per_sweep(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A backlog (matches that ended uncounted) is counted ``CATCH_UP`` matches per sweep,
    going on where the last sweep stopped, until a sweep finds fewer."""
    import service.explorer
    monkeypatch.setattr(service.explorer, "CATCH_UP", 2)
    repo = MemoryRepository()
    before = MatchService(repo, Recorder(), SetClock())

    async def missed(event: object) -> None:  # the process stopped before counting
        return None
    with monkeypatch.context() as patch:
        patch.setattr(before._explorer, "_count_ended", missed)
        for _ in range(3):
            await played_to_the_end(before)
    after = MatchService(repo, Recorder(), SetClock())
    games = []
    for _ in range(3):
        await after.sweep()
        games.append((await after.explorer(GUILD, ALICE, "damas")).games)
    assert games == [2, 3, 3] and after._explorer._caught_up
