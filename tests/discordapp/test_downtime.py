"""Clocks never run while Tablero is away, on Discord (issue 12): the sweep loop resumes
the clocks before every sweep and does nothing while the gateway is cut off, so after a
three-day outage nobody is timed out, every deadline has moved by the outage and each
match's thread gets one notice."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.discordapp.cogs.deadlines import grace_for
from tests.discordapp.conftest import SWEEP_SECONDS, World, make_bot, make_repository, service_of
from tests.discordapp.helpers import start_match

# a three-day catch-up (every deadline swept, every board posted) takes seconds of wall time
# on a loaded machine: SimCord's default 5 s for the bot to settle was passed now and then
pytestmark = pytest.mark.simcord(settle_timeout=30.0)

HOUR = 3600.0
DAY = 24 * HOUR
NOTICE = "Tablero was offline for 3 days; all clocks were extended"


async def two_matches(w: World) -> list[tuple[Any, Any]]:
    """Alice-Bob (one day a move) and Carol-Dave (two days), both waiting for a move."""
    one = await start_match(w, w.alice, w.bob, seat=0, days=1)
    two = await start_match(w, w.carol, w.dave, seat=0, days=2)
    await w.env.advance_time(HOUR)  # a sweep: the heartbeat is stored
    return [one, two]


async def disconnect(w: World) -> None:
    for shard in w.bot.shards.values():
        await shard.disconnect()


async def reconnect(w: World) -> None:
    for shard in w.bot.shards.values():
        await shard.connect()


def offline_notices(thread: Any) -> list[Any]:
    return [m for m in thread.history() if "offline for" in m.content]


async def test_a_three_day_gateway_outage_times_nobody_out(world: World) -> None:
    w = world
    matches = await two_matches(w)
    before = {m.id: (await w.service.get_match(m.id)).deadline for m, _ in matches}
    await disconnect(w)
    await w.env.advance_time(3 * DAY)  # deadlines pass while nobody can see the games
    for m, _ in matches:
        assert not (await w.service.get_match(m.id)).is_over
    await reconnect(w)
    await w.env.advance_time(SWEEP_SECONDS)  # the first sweep after the outage
    for m, thread in matches:
        now = await w.service.get_match(m.id)
        assert not now.is_over and now.status.value == "active"
        old = before[m.id]
        assert now.deadline is not None and old is not None
        moved = now.deadline - old
        # moved by the time away: three days, plus at most the sweeps around the outage
        assert timedelta(days=3) <= moved <= timedelta(days=3, seconds=2 * SWEEP_SECONDS)
        (notice,) = offline_notices(thread)  # one notice per match, in its thread
        assert NOTICE in notice.content and str(m.id) in notice.content
        assert not notice.mentions  # nobody is pinged for it
    await w.env.advance_time(5 * HOUR)
    for _, thread in matches:
        assert len(offline_notices(thread)) == 1  # resuming again extends nothing


async def test_the_clocks_wait_for_a_restarted_process(world: World) -> None:
    w = world
    matches = await two_matches(w)
    before = {m.id: (await w.service.get_match(m.id)).deadline for m, _ in matches}
    await disconnect(w)  # the process goes down: it no longer beats
    await w.env.advance_time(3 * DAY)
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)  # a new process on the same database
    await w.env.advance_time(SWEEP_SECONDS)
    service = service_of(fresh)
    for m, thread in matches:
        now = await service.get_match(m.id)
        assert not now.is_over
        assert now.deadline is not None and now.deadline - before[m.id] >= timedelta(days=3)
        assert len(offline_notices(thread)) == 1
    await repository.close()


async def test_a_short_disconnection_moves_no_clock(world: World) -> None:
    w = world
    (m, thread), _ = await two_matches(w)
    before = (await w.service.get_match(m.id)).deadline
    await disconnect(w)
    await w.env.advance_time(SWEEP_SECONDS)  # shorter than the grace: normal running
    await reconnect(w)
    await w.env.advance_time(SWEEP_SECONDS)
    assert (await w.service.get_match(m.id)).deadline == before
    assert offline_notices(thread) == []
    assert grace_for(SWEEP_SECONDS) > timedelta(seconds=2 * SWEEP_SECONDS)
