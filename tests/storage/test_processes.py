"""Processes sharing one database (issue 15), each test on SQLite and on a real PostgreSQL,
with two repositories opened on the same database as two processes would:

* the clocks' heartbeat is per shard: one process's outage among several extends only its
  own guilds' clocks, and nobody is timed out for it; after a change of SHARD_COUNT every
  shard is extended by the whole stop;
* lease transactions run one at a time: a process with another SHARD_COUNT (or the
  console) starting while a lease transaction is under way is refused, never let in;
* the console and ``tablero db copy`` hold the whole database: refused beside a live bot,
  and a bot is refused beside them.
"""

from __future__ import annotations

import asyncio
import io
import random
import threading
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import operations
from bot.__main__ import main
from bot.console import run_console
from service import (
    ClocksExtended,
    MatchEnded,
    MatchService,
    MatchStatus,
    NullNotifier,
    ShardSet,
    SystemClock,
    shard_of,
)
from service.shards import ShardLease, ShardsTaken
from storage import PostgresRepository, SqliteRepository, open_database
from storage.copy import row_counts
from storage.errors import DatabaseInUse
from storage.sql import SqlRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, SetClock

GUILD_ON_0 = (1_000 << 22) | 0x3FFFFF  # shard 0 of 2
GUILD_ON_1 = (1_001 << 22) | 12345  # shard 1 of 2
HOUR = timedelta(hours=1)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file or a PostgreSQL URL (an empty schema of its own)."""
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def two(database: str) -> AsyncIterator[tuple[SqlRepository, SqlRepository]]:
    """Two repositories on the one database: what two processes hold."""
    a = await open_database(database if "://" in database else Path(database))
    b = await open_database(database if "://" in database else Path(database))
    yield a, b
    await a.close()
    await b.close()


async def _start(service: MatchService, guild: int, days: int = 1) -> int:
    m = await service.challenge(guild, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=days)
    return (await service.accept(m.id, BOB)).id


# ---------------------------------------------------------------------- the clocks

async def test_one_processs_outage_extends_only_its_own_guilds_clocks(
        two: tuple[SqlRepository, SqlRepository]) -> None:
    clock = SetClock()
    first = MatchService(two[0], NullNotifier(), clock, rng=random.Random(1),
                         shards=ShardSet(2, (0,)))
    second = MatchService(two[1], NullNotifier(), clock, rng=random.Random(2),
                          shards=ShardSet(2, (1,)))
    assert await first.resume() == [] and await second.resume() == []  # both start
    on_0, on_1 = await _start(first, GUILD_ON_0), await _start(second, GUILD_ON_1)
    before = {i: (await first.get_match(i)).deadline for i in (on_0, on_1)}
    # the first process stops for three hours; the second runs on, beating every hour
    running = timedelta(hours=2)  # (the grace of a bot sweeping hourly)
    for _ in range(3):
        clock.advance(hours=1)
        assert await second.resume(running) == []  # its clocks ran: nothing to extend
        await second.sweep()
    clock.advance(minutes=30)  # past the first match's deadline (a day: not yet)
    extended = await first.resume()
    assert [e.match.id for e in extended] == [on_0]
    assert isinstance(extended[0], ClocksExtended)
    assert extended[0].gap == timedelta(hours=3, minutes=30)
    after_0 = (await first.get_match(on_0)).deadline
    after_1 = (await first.get_match(on_1)).deadline
    assert before[on_0] is not None and before[on_1] is not None
    assert after_0 == before[on_0] + timedelta(hours=3, minutes=30)
    assert after_1 == before[on_1]  # the second process's guild: its clock ran
    assert await second.resume(running) == []  # and it is not extended later either
    assert (await first.get_match(on_1)).deadline == before[on_1]
    # a day after the start the second match times out; the first has its 3.5 h back
    clock.t += timedelta(days=1, minutes=1) - timedelta(hours=3, minutes=30)
    await first.beat()
    await second.beat()
    assert [e.match.id for e in await second.sweep() if isinstance(e, MatchEnded)] == [on_1]
    assert not [e for e in await first.sweep() if isinstance(e, MatchEnded)]
    assert (await first.get_match(on_0)).status is MatchStatus.ACTIVE
    assert (await first.get_match(on_1)).status is MatchStatus.ABORTED


async def test_after_a_change_of_shard_count_each_shard_is_extended_by_the_whole_stop(
        two: tuple[SqlRepository, SqlRepository]) -> None:
    clock = SetClock()
    single = MatchService(two[0], NullNotifier(), clock, rng=random.Random(1))
    assert await single.resume() == []  # one process, SHARD_COUNT 1
    ids = {g: await _start(single, g, days=3) for g in (GUILD_ON_0, GUILD_ON_1)}
    deadlines = {g: (await single.get_match(i)).deadline for g, i in ids.items()}
    clock.advance(hours=2)  # stopped, reconfigured as two processes: one starts now,
    first = MatchService(two[0], NullNotifier(), clock, shards=ShardSet(2, (0,)))
    second = MatchService(two[1], NullNotifier(), clock, shards=ShardSet(2, (1,)))
    assert [e.match.id for e in await first.resume()] == [ids[GUILD_ON_0]]
    clock.advance(minutes=10)  # the other ten minutes later
    extended = await second.resume()
    assert [e.match.id for e in extended] == [ids[GUILD_ON_1]]
    assert extended[0].gap == timedelta(hours=2, minutes=10)  # not just 10 minutes
    for guild, gap in ((GUILD_ON_0, 2 * HOUR), (GUILD_ON_1, timedelta(hours=2, minutes=10))):
        d = deadlines[guild]
        assert d is not None and (await single.get_match(ids[guild])).deadline == d + gap
    # both run for a day; then back to one process at once: nothing more to extend
    clock.advance(hours=20)
    assert await first.resume(timedelta(days=1)) == []
    assert await second.resume(timedelta(days=1)) == []
    clock.advance(minutes=1)
    assert await single.resume() == []


# ---------------------------------------------------------------------- the leases

class Slow:
    """Hold ``repo``'s lease transaction open for ``seconds`` after its last statement, as
    a process stalled (or merely unlucky) between its check and its commit would."""

    def __init__(self, repo: SqlRepository, seconds: float) -> None:
        self.inside = asyncio.Event()
        self.repo, self.seconds = repo, seconds
        self.plain = repo._exec

    async def __call__(self, sql: str, params: Sequence[Any] = ()) -> Any:
        result = await self.plain(sql, params)
        if sql.startswith("INSERT INTO shard_leases"):
            self.inside.set()
            await asyncio.sleep(self.seconds)
        return result


async def test_two_processes_counting_shards_differently_starting_together_one_is_refused(
        two: tuple[SqlRepository, SqlRepository], monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SetClock()
    slow = Slow(two[0], 0.5)
    monkeypatch.setattr(two[0], "_exec", slow)
    first = asyncio.create_task(ShardLease(two[0], ShardSet(2, (0,)), clock,
                                           owner="two").acquire())
    await slow.inside.wait()  # the first has checked and written, not yet committed
    with pytest.raises(ShardsTaken, match="SHARD_COUNT"):
        await ShardLease(two[1], ShardSet(3, (1,)), clock, owner="three").acquire()
    await first  # the first got its shard
    assert await two[1].lease_shards((1,), 2, "two-b", clock.now(), timedelta(seconds=90)) \
        == []  # the same count is welcome on another shard


async def test_the_console_is_refused_beside_a_live_bot_and_a_bot_beside_the_console(
        database: str) -> None:
    target = database if "://" in database else Path(database)
    bot = await open_database(target)
    lease = ShardLease(bot, ShardSet(2, (1,)), SystemClock())
    await lease.acquire()
    with pytest.raises(DatabaseInUse, match="in use by another running Tablero process"):
        await run_console(target, stdin=io.StringIO("as alice\n"), stdout=io.StringIO())
    await lease.release()  # the bot stopped: the console runs

    # and while the console runs, a bot process (any shards) is refused
    gate = threading.Event()

    class Waiting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            gate.wait(30)
            return ""

    out = io.StringIO()
    console = asyncio.create_task(run_console(target, stdin=Waiting(), stdout=out))
    try:
        for _ in range(200):  # the console has started when it waits for input
            await asyncio.sleep(0.05)
            held = await bot._all("SELECT count(*) FROM shard_leases")
            if held[0][0]:
                break
        for shards in (ShardSet(), ShardSet(2, (1,))):
            with pytest.raises(ShardsTaken):
                await ShardLease(bot, shards, SystemClock()).acquire()
    finally:
        gate.set()
        assert await console == 0
    await ShardLease(bot, ShardSet(), SystemClock()).acquire()  # released at its end
    await bot.close()


def test_tablero_console_says_why_and_exits_3_beside_a_live_bot(
        database: str, capsys: pytest.CaptureFixture[str]) -> None:
    target = database if "://" in database else Path(database)

    async def lease(release: bool) -> None:
        repo = await open_database(target)
        held = ShardLease(repo, ShardSet(2, (0,)), SystemClock(), owner="bot")
        await (held.release() if release else held.acquire())
        await repo.close()
    asyncio.run(lease(False))  # a live bot process's lease (renewed within 90 s)
    try:
        assert main(["console", "--db", str(database)]) == 3
    finally:
        asyncio.run(lease(True))
    said = capsys.readouterr().err
    assert f"tablero: {database} is in use by another running Tablero process" in said
    assert "the console would sweep its deadlines and resume its clocks beside it" in said


async def test_db_copy_refuses_a_live_source_or_target_and_carries_tournaments(
        tmp_path: Path, database: str) -> None:
    source = tmp_path / "source.db"
    repo = await SqliteRepository.open(source)
    service = MatchService(repo, NullNotifier(), SetClock(), rng=random.Random(4))
    await _start(service, GUILD_ON_0)
    t = await service.create_tournament(GUILD_ON_0, CHANNEL, ALICE, "xiangqi", fmt="swiss",
                                        rounds=3)
    await service.join_tournament(t.id, ALICE)
    await service.join_tournament(t.id, BOB)
    joined = await service.get_tournament(t.id)
    await repo.close()
    target = database if "://" in database else Path(str(database) + ".copy")
    out, err = io.StringIO(), io.StringIO()
    for live in (source, target):
        held = await open_database(live)
        lease = ShardLease(held, ShardSet(), SystemClock())
        await lease.acquire()
        try:
            with pytest.raises(DatabaseInUse, match="could miss what it writes"
                               if live == source else "the only writer there"):
                await operations.copy(source, target, progress=False, out=out, err=err)
        finally:
            await lease.release()
            await held.close()
        empty = await open_database(target)
        assert sum((await row_counts(empty)).values()) == 0  # nothing was written
        await empty.close()
    assert await operations.copy(source, target, progress=False, out=out, err=err) == 0
    copied = await open_database(target)
    try:
        assert await MatchService(copied, NullNotifier(), SetClock()).get_tournament(t.id) \
            == joined
        assert (await row_counts(copied))["tournaments"] == 1
        # the copy released both databases
        await ShardLease(copied, ShardSet(), SystemClock()).acquire()
    finally:
        await copied.close()
    assert isinstance(copied, PostgresRepository | SqliteRepository)
    assert shard_of(GUILD_ON_0, 2) == 0 and shard_of(GUILD_ON_1, 2) == 1
