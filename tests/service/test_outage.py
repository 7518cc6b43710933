"""A database outage is a typed refusal (issue 36 §2): on SQLite (a full disk) and on a
real PostgreSQL server that stops and starts again mid-test, a request during the outage
raises the core's ``StorageUnavailable`` with the sentence a person reads, stores nothing
in part, and the same request after the outage goes through; the sweeps and the
computer's turns wait and resume without a restart; the operator's log says one line when
the database goes and one when it is back, and no traceback.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.computer import InlineMovePicker
from service import MatchService, MatchStatus, Repository
from service.errors import (
    CommitUncertain,
    DatabaseFull,
    DatabaseUnreachable,
    StorageUnavailable,
)
from service.outbox import OutboxRelay
from service.records import OutboxEntry
from storage import MemoryRepository, PostgresRepository, SqliteRepository
from tests.outages import DiskFull, LogWatch, ServerDown
from tests.postgres import LocalServer
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock, start_match

UNREACHABLE = ("the database is not reachable right now; nothing was changed. Try again in "
               "a minute")
FULL = ("the database is full (its disk has no room left); nothing was changed. Try again "
        "later: the bot's operator must free some space")


@pytest.fixture(params=["sqlite", "postgres"])
async def outage(request: pytest.FixtureRequest, tmp_path: Path
                 ) -> AsyncIterator[tuple[Repository, DiskFull | ServerDown]]:
    """A repository and an outage of its database (SQLite: the disk full; PostgreSQL:
    the server stopped)."""
    repo: Any
    if request.param == "sqlite":
        repo = await SqliteRepository.open(tmp_path / "tablero.db")
        yield repo, DiskFull(repo)
    else:
        server, url = request.getfixturevalue("restartable_postgres_url")
        repo = await PostgresRepository.open(url)
        yield repo, ServerDown(server)
    await repo.close()


async def test_a_move_during_an_outage_is_refused_typed_and_accepted_after_it(
        outage: tuple[Repository, DiskFull | ServerDown],
        caplog: pytest.LogCaptureFixture) -> None:
    repo, down = outage
    watch = LogWatch(caplog)
    service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(7))
    m = await start_match(service)
    before = await repo.load_match(m.id)
    pending = await repo.pending_outbox(limit=100)
    await down.begin()
    refusals = []
    for _ in range(3):  # each try is refused; the log says it once
        with pytest.raises(StorageUnavailable) as caught:
            await service.move(m.id, ALICE, "h3-e3")
        refusals.append(caught.value)
    await down.end()
    assert all(type(e) is down.expected for e in refusals)
    assert {e.message for e in refusals} == {FULL if down.kind == "sqlite" else UNREACHABLE}
    assert all(e.cause and e.database for e in refusals)  # for the operator
    # nothing of the refused move was stored: not the row, not an entry, not a message
    after = await repo.load_match(m.id)
    assert after is not None and before is not None
    assert (after.version, after.ply, after.position_text) == \
        (before.version, before.ply, before.position_text)
    assert await repo.load_entries(m.id) == []
    assert await repo.pending_outbox(limit=100) == pending
    # the same move, sent again once the database is back, is played (the pool
    # reconnected by itself: the same repository, never reopened)
    played = await service.move(m.id, ALICE, "h3-e3")
    assert played.match.ply == 1
    assert [e.text for e in await repo.load_entries(m.id)] == ["h3-e3"]
    assert len(watch.went()) == 1 and len(watch.back()) == 1, watch.went() + watch.back()
    assert watch.tracebacks() == []
    assert watch.loud() == []


class GatedPicker:
    """The computer thinks until the test opens the gate (so the database can fail
    between its pick and its move)."""

    def __init__(self) -> None:
        self.inner = InlineMovePicker(nodes=100)
        self.gate = asyncio.Event()

    async def pick(self, position: Any, seat: int, level: int, *, seed: int) -> str:
        await self.gate.wait()
        return await self.inner.pick(position, seat, level, seed=seed)

    async def weigh(self, moves: Any) -> Any:
        return await self.inner.weigh(moves)


async def test_the_sweep_and_the_computer_wait_for_the_database_and_resume(
        outage: tuple[Repository, DiskFull | ServerDown],
        caplog: pytest.LogCaptureFixture) -> None:
    repo, down = outage
    watch = LogWatch(caplog)
    clock = SetClock()
    picker = GatedPicker()
    recorder = Recorder()
    service = MatchService(repo, recorder, clock, rng=random.Random(7), picker=picker)
    await service.sweep()  # the first sweep has woken the computers (none yet)
    people = await start_match(service, days=1)  # Alice and Bob: a deadline tomorrow
    cpu = await service.challenge_computer(GUILD, CHANNEL, ALICE, "damas", level=1, seat=0)
    p, _ = await service.position(cpu.id)
    await service.move(cpu.id, ALICE, p.variant.format_move(p, p.legal_moves()[0]))
    clock.advance(days=2)  # Alice's time in the other match has run out
    await down.begin()
    picker.gate.set()
    await service.computers_idle()  # its move could not be stored: it waits, quietly
    for _ in range(2):  # the sweep (deadlines, tournaments, seasons) is refused, typed
        with pytest.raises(StorageUnavailable):
            await service.sweep()
    await down.end()
    assert (await service.get_match(cpu.id)).ply == 1
    assert (await service.get_match(people.id)).status is MatchStatus.ACTIVE
    await service.sweep()  # the first sweep after the outage catches up with both
    await service.computers_idle()
    assert (await service.get_match(cpu.id)).ply == 2
    ended = await service.get_match(people.id)
    assert ended.status is MatchStatus.ABORTED and ended.result is not None  # timed out
    assert len(watch.went()) == 1 and len(watch.back()) == 1
    assert watch.tracebacks() == []
    assert watch.loud() == []


async def test_a_restart_under_load_stores_every_move_whole_or_not_at_all(
        restartable_postgres_url: tuple[LocalServer, str],
        caplog: pytest.LogCaptureFixture) -> None:
    """Players keep moving in four matches while the server restarts: every move is
    played or refused with a typed error; each acknowledged move is stored once, no
    refused one is stored, the records replay, and every match plays on after."""
    server, url = restartable_postgres_url
    watch = LogWatch(caplog)
    repo = await PostgresRepository.open(url)
    service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(3))
    try:
        matches = [(await start_match(service)).id for _ in range(4)]
        # by match: the move tried at each ply, acknowledged or cut off in its commit
        acknowledged: dict[int, dict[int, str]] = {m: {} for m in matches}
        refused: list[StorageUnavailable] = []
        uncertain: dict[int, dict[int, str]] = {m: {} for m in matches}
        restarted = asyncio.Event()

        async def player(match_id: int, seed: int) -> None:
            rng = random.Random(seed)
            after = 0
            for _ in range(400):  # bounded: on until five tries after the restart
                if restarted.is_set():
                    after += 1
                    if after > 5:
                        return
                try:
                    rec = await service.get_match(match_id)
                    p, _ = await service.position(match_id)
                except StorageUnavailable as e:
                    refused.append(e)
                    await asyncio.sleep(0.05)
                    continue
                if p.outcome() is not None:
                    return
                text = p.variant.format_move(p, rng.choice(list(p.legal_moves())))
                try:
                    await service.move(match_id, rec.to_move[0], text)
                except CommitUncertain:
                    uncertain[match_id][rec.ply] = text
                except StorageUnavailable as e:
                    refused.append(e)
                    await asyncio.sleep(0.05)
                else:
                    acknowledged[match_id][rec.ply] = text

        async def restart() -> None:
            await asyncio.sleep(0.1)
            await asyncio.to_thread(server.shut_down)
            await asyncio.sleep(0.3)
            await asyncio.to_thread(server.start_again)
            restarted.set()

        await asyncio.gather(restart(), *(player(m, n) for n, m in enumerate(matches)))
        assert refused, "the restart fell between the moves"
        assert await service.verify_all() == []  # every stored record replays
        for match_id in matches:
            stored = [e.text for e in await repo.load_entries(match_id)]
            rec = await repo.load_match(match_id)
            assert rec is not None and rec.ply == len(stored)
            # each stored move is the one acknowledged at its ply, or the one whose commit
            # was cut off there; every acknowledged one is stored (a refused one is not)
            assert all(text in (acknowledged[match_id].get(ply),
                                uncertain[match_id].get(ply))
                       for ply, text in enumerate(stored)), (stored, acknowledged)
            assert max(acknowledged[match_id], default=-1) < len(stored)
            assert all(stored[ply] == text for ply, text in acknowledged[match_id].items())
            p, _ = await service.position(match_id)  # and the match plays on
            if p.outcome() is None:
                text = p.variant.format_move(p, next(iter(p.legal_moves())))
                view = await service.get_match(match_id)
                assert (await service.move(match_id, view.to_move[0], text)).match.ply == \
                    rec.ply + 1
        assert watch.tracebacks() == []
        assert len(watch.went()) == 1 and len(watch.back()) == 1
    finally:
        await repo.close()


async def test_a_message_whose_delivery_meets_an_outage_is_retried_never_dropped(
        caplog: pytest.LogCaptureFixture) -> None:
    """The deliverer reads the database (a server's language, a record): when that read
    fails, the entry stays and goes out after a backoff (it used to be dropped as a
    permanent failure)."""
    watch = LogWatch(caplog)
    repo = MemoryRepository()
    clock = SetClock()
    delivered: list[int] = []
    sleeps: list[float] = []
    tries = 0

    async def deliver(entry: OutboxEntry, event: Any) -> None:
        nonlocal tries
        tries += 1
        if tries <= 2:
            raise DatabaseUnreachable("t.db", "connection refused")
        delivered.append(entry.id)

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    relay = OutboxRelay(repo, deliver, clock, sleep=sleep, backoff=0.5,
                        live_grace=timedelta(0))
    service = MatchService(repo, relay, clock, rng=random.Random(1))
    await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await relay.drain()
    assert sleeps == [0.5, 1.0]  # backing off, twice
    assert len(delivered) == 1 and await repo.pending_outbox(limit=10) == []
    assert watch.tracebacks() == [] and watch.loud() == []


async def test_a_size_limit_fills_the_database_for_real(tmp_path: Path) -> None:
    """SQLite itself runs out of room (``PRAGMA max_page_count``: the database may grow
    no further, as on a full disk): the move that needs room is refused with
    ``DatabaseFull``, stores nothing, and is played once there is room again."""
    repo = await SqliteRepository.open(tmp_path / "tablero.db")
    try:
        service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(5))
        m = await start_match(service)
        async with repo._writer.execute("PRAGMA page_count") as cur:
            (pages,) = await cur.fetchone()  # type: ignore[misc]
        await repo._writer.execute(f"PRAGMA max_page_count = {pages}")
        rng = random.Random(5)
        full: DatabaseFull | None = None
        for _ in range(200):  # bounded: the pages fill within a few dozen moves
            rec = await service.get_match(m.id)
            p, _ = await service.position(m.id)
            if p.outcome() is not None:
                m = await start_match(service)
                continue
            text = p.variant.format_move(p, rng.choice(list(p.legal_moves())))
            try:
                await service.move(m.id, rec.to_move[0], text)
            except DatabaseFull as e:
                full = e
                break
        assert full is not None and "full" in full.cause
        stored = await repo.load_match(m.id)
        assert stored is not None and stored.ply == rec.ply  # nothing in part
        assert len(await repo.load_entries(m.id)) == rec.ply
        await repo._writer.execute("PRAGMA max_page_count = 1073741823")  # room again
        played = await service.move(m.id, rec.to_move[0], text)
        assert played.match.ply == rec.ply + 1
        assert (await repo.load_entries(m.id))[-1].text == text
    finally:
        await repo.close()
