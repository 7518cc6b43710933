"""A database outage on Discord (issue 36 §2), on SQLite (the disk full) and on a real
PostgreSQL server stopped mid-test: a command during the outage gets an ephemeral reply
saying so, and the same move after it is played; the deadline sweep and the outbox poll
back off while the database is unavailable and resume by themselves; the log says one line
when it goes, one when it is back, and no traceback.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discordapp.cogs import DeadlinesCog
from bot.discordapp.cogs.deliveries import DeliveriesCog
from service.backoff import Backoff
from storage import PostgresRepository
from tests.discordapp.conftest import World, make_repository
from tests.discordapp.helpers import reply, start_match, words
from tests.outages import DiskFull, LogWatch, ServerDown

# the sweep and the outbox backing off and resuming take seconds of wall time on a loaded
# machine: SimCord's default 5 s for the bot to settle was passed now and then
pytestmark = pytest.mark.simcord(settle_timeout=30.0)

SAID = {
    "sqlite": "The database is full (its disk has no room left); nothing was changed. Try "
              "again later: the bot's operator must free some space.",
    "postgres": "The database is not reachable right now; nothing was changed. Try again in "
                "a minute.",
}


@pytest.fixture(params=["sqlite", "postgres"])
async def repository(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """The bot's database: a SQLite file, or a schema on a server the test may stop."""
    if request.param == "sqlite":
        repo = await make_repository(tmp_path / "tablero.db")
    else:
        _server, url = request.getfixturevalue("restartable_postgres_url")
        repo = await PostgresRepository.open(url)
    yield repo
    await repo.close()


@pytest.fixture
def down(request: pytest.FixtureRequest, repository: Any) -> DiskFull | ServerDown:
    if isinstance(repository, PostgresRepository):
        server, _url = request.getfixturevalue("restartable_postgres_url")
        return ServerDown(server)
    return DiskFull(repository)


async def test_a_move_during_an_outage_is_an_ephemeral_refusal_then_it_is_played(
        world: World, down: DiskFull | ServerDown,
        caplog: pytest.LogCaptureFixture) -> None:
    w = world
    watch = LogWatch(caplog)
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    posts = len(thread.history())
    await down.begin()
    refused = [reply(await w.alice.slash(thread, "move", move="h3-e3")) for _ in range(2)]
    refused.append(reply(await w.alice.slash(thread, "board")))
    await down.end()
    if down.kind == "sqlite":  # on a full disk the board still shows; the moves do not
        refused.pop()
    for r in refused:
        assert r.ephemeral and r.content == SAID[down.kind], r.content
    assert len(thread.history()) == posts  # nothing was announced
    assert (await w.service.get_match(m.id)).ply == 0
    played = reply(await w.alice.slash(thread, "move", move="h3-e3"))
    assert "You played" in played.content
    assert (await w.service.get_match(m.id)).ply == 1
    assert "h3-e3" in words(thread.last_message)
    assert watch.tracebacks() == [] and watch.loud() == []
    assert len(watch.went()) == 1 and len(watch.back()) == 1


async def test_the_sweep_and_the_outbox_poll_back_off_and_resume(
        world: World, down: DiskFull | ServerDown,
        caplog: pytest.LogCaptureFixture) -> None:
    w = world
    watch = LogWatch(caplog)
    m, _thread = await start_match(w, w.alice, w.bob, seat=0, days=1)
    sweep = w.bot.get_cog("Deadlines")
    poll = w.bot.get_cog("Deliveries")
    assert isinstance(sweep, DeadlinesCog) and isinstance(poll, DeliveriesCog)
    await w.env.advance_time(23 * 3600)  # the loops sweep (and beat) every hour
    # then the test ticks both loops by hand, on a clock of its own for their backoff
    # (ticks here are an hour apart, past the five minutes a backoff waits at most in
    # the bot: waits of up to eight ticks)
    sweep._loop.cancel()
    poll._loop.cancel()
    now = [0.0]
    tick = sweep.backoff.first
    sweep.backoff = Backoff(tick, 8 * tick, monotonic=lambda: now[0])
    poll.backoff = Backoff(tick, 8 * tick, monotonic=lambda: now[0])
    await w.env.advance_time(2 * 3600)  # Alice's day has run out (a gap, no outage)
    await down.begin()
    ran, skipped = sweep.sweeps, sweep.skipped
    for _ in range(6):  # six ticks, one period apart: tried at 0, 1, 3 periods
        await sweep.sweep_once()
        await poll.poll_once()
        now[0] += tick
    assert sweep.sweeps - ran == 3 and sweep.skipped - skipped == 3
    assert sweep.backoff.failures == 3
    if down.kind == "postgres":  # on a full disk the poll only reads: it goes on
        assert poll.backoff.failures == 3
    await down.end()
    assert not (await w.service.get_match(m.id)).is_over
    now[0] += 8 * tick  # past the longest wait so far
    await sweep.sweep_once()  # resumes by itself: Alice is timed out now
    await poll.poll_once()
    assert sweep.backoff.failures == 0 and poll.backoff.failures == 0
    assert (await w.service.get_match(m.id)).is_over
    assert watch.tracebacks() == [] and watch.loud() == []
    assert len(watch.went()) == 1 and len(watch.back()) == 1
