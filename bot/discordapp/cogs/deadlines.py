"""The deadline sweep: reminders and timeouts, on a discord.py task loop, with clocks
that never run while Tablero is away.

Before every sweep (the first one included) the cog calls ``service.resume``: the
heartbeat is stored, and after a gap longer than ``grace`` every live match's clock moves
later by the gap and the match is told once. While the gateway is disconnected (any
shard) the cog neither beats nor sweeps: players could not see the game nor act, so the
time does not count, and the gap shows at the first sweep after the connection is back.

While the database is unavailable the sweep backs off (:class:`Backoff`: it skips ticks,
waiting twice as long after each failure, up to five minutes) and says nothing: the
repository logs the outage once and its end once. The first sweep that goes through again
catches up with everything that fell due meanwhile, computer turns included.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta

import discord
from discord.ext import commands, tasks

from bot.ops.health import SweepWatch
from service import MatchService
from service.backoff import Backoff
from service.clocks import DEFAULT_GRACE
from service.errors import StorageError

log = logging.getLogger("tablero.discord")

MISSED_SWEEPS = 3
"""A gap longer than this many sweep intervals is an outage, not normal running."""

LONGEST_WAIT = 300.0
"""Seconds the sweep (and the outbox poll) wait at most between tries while the database
is unavailable."""


def grace_for(sweep_seconds: float) -> timedelta:
    """The gap ``resume`` tolerates: three sweep intervals, and never under five minutes.

    A tick may come late (a slow sweep, a busy event loop, a quick restart): that is
    normal running and must not move anybody's clock. Three missed ticks are not.

    >>> grace_for(60), grace_for(3600)
    (datetime.timedelta(seconds=300), datetime.timedelta(seconds=10800))
    """
    return max(DEFAULT_GRACE, timedelta(seconds=MISSED_SWEEPS * sweep_seconds))


class DeadlinesCog(commands.Cog, name="Deadlines"):
    """Resumes the clocks and runs ``service.sweep`` every ``seconds`` once the client is
    ready, while it is connected to Discord."""

    def __init__(self, service: MatchService, client: discord.Client, seconds: float,
                 watch: SweepWatch | None = None,
                 chores: Sequence[Callable[[], Awaitable[object]]] = ()) -> None:
        self.service = service
        self.chores = tuple(chores)
        """The adapter's own periodic work, done at each tick after the sweep (the
        commands' ids fetched again when due: ``sync.IdsRefresh.tick``), whatever the
        sweep's outcome; one that fails is logged, the tick goes on."""
        self.watch = watch  # when sweeps end (readiness) and how long they take (metrics)
        self.client = client
        self.grace = grace_for(seconds)
        self.sweeps = 0
        self.skipped = 0
        self.backoff = Backoff(seconds, LONGEST_WAIT)
        self.down: set[int] = set()  # shards cut off from the gateway
        self._loop = tasks.loop(seconds=seconds)(self.sweep_once)
        self._loop.before_loop(self._until_ready)

    async def cog_load(self) -> None:
        self._loop.start()

    async def cog_unload(self) -> None:
        self._loop.cancel()
        # the sweep's puzzle mining and the explorer's catch-up go on in the background:
        # stopped before the engine's pool and the database close under them; the counts
        # and fingerprints of the matches that just ended are waited for (5 s at most)
        await self.service.stop_background()

    async def _until_ready(self) -> None:
        await self.client.wait_until_ready()

    # ------------------------------------------------------------------ the connection

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        self.down.add(shard_id)

    @commands.Cog.listener()
    async def on_shard_connect(self, shard_id: int) -> None:
        self.down.discard(shard_id)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        self.down.discard(shard_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        self.down.discard(shard_id)

    @property
    def connected(self) -> bool:
        """Whether players can reach the bot: ready, and no shard cut off."""
        return self.client.is_ready() and not self.client.is_closed() and not self.down

    # ------------------------------------------------------------------ the sweep

    async def sweep_once(self) -> None:
        """Resume the clocks, then act on due deadlines (and start the computer turns
        that a restart or a failed pick left unplayed), then the :attr:`chores`;
        nothing while disconnected. A failure is logged; the loop keeps running."""
        if not self.connected:
            self.skipped += 1
            self._ended("skipped")
            log.info("gateway disconnected (shards %s): no sweep, the clocks wait",
                     sorted(self.down) or "all")
            return
        if not self.backoff.due():
            self.skipped += 1
            self._ended("skipped")
        else:
            await self._sweep()
        await self._chores()  # they need Discord, not the database

    async def _sweep(self) -> None:
        self.sweeps += 1
        started = time.perf_counter()
        try:
            extended = await self.service.resume(self.grace)
            if extended:
                log.warning("back after %s away: extended the clocks of %d matches (%s)",
                            extended[0].gap, len(extended),
                            ", ".join(str(e.match.id) for e in extended))
            await self.service.sweep()  # it ends by starting computer turns left unplayed
        except StorageError as e:  # the repository logs the outage, once
            self._ended("unavailable", time.perf_counter() - started)
            log.debug("deadline sweep waits %.0f s for the database: %s",
                      self.backoff.failed(), e.message)
        except Exception:
            self._ended("failed", time.perf_counter() - started)
            log.exception("deadline sweep failed; retrying at the next tick")
        else:
            self._ended("ok", time.perf_counter() - started)
            self.backoff.succeeded()

    async def _chores(self) -> None:
        for chore in self.chores:
            try:
                await chore()
            except Exception:
                log.exception("a periodic chore failed; retrying at the next tick")

    def _ended(self, outcome: str, seconds: float | None = None) -> None:
        if self.watch is not None:
            self.watch.ended(outcome, seconds)
