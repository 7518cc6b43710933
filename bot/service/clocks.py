"""Clocks never run while Tablero is away.

The running bot (or console) stores a heartbeat for each shard it runs. When it resumes
after a gap longer than ``grace`` — the process was down, or it was cut off from Discord —
every active deadline and reminder time of its shards' guilds is moved later by the gap,
in one transaction per shard, before the next sweep can time anybody out, and each such
match gets one ``ClocksExtended`` notice. Other processes' guilds are untouched: their
clocks ran (or their own process extends them when it is back). The extension is a
compare-and-set on the shard's beat, so two processes resuming at once extend once.
Time moves only through the ``Clock`` port, so tests drive it by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.service.core import ServiceCore
from bot.service.events import ClocksExtended, Event
from bot.service.outbox import Announce
from bot.service.records import MatchRecord

DEFAULT_GRACE = timedelta(minutes=5)
"""A gap up to this long is normal running (a sweep interval or a few, a quick restart)."""


class ClocksMixin(ServiceCore):
    """``resume``: the heartbeat, and the extension of every clock after a gap."""

    async def resume(self, grace: timedelta = DEFAULT_GRACE, now: datetime | None = None
                     ) -> list[ClocksExtended]:
        """Beat the heartbeat of this process's shards; for each shard whose last beat is
        more than ``grace`` ago, first move every active match of its guilds later by the
        gap and tell each match. Each shard counts alone: one process's outage among
        several extends only the clocks of its own guilds.

        Call it at start-up before the first sweep and before every sweep after that;
        don't call it while cut off from Discord (the gap then shows when back)."""
        now = now or self.clock.now()
        count = self.shards.count
        fresh: list[int] = []
        events: list[ClocksExtended] = []
        for shard in self.shards.shard_ids:
            last = await self.repository.heartbeat(shard, count)
            if last is None or now - last <= grace:
                fresh.append(shard)  # also a clock set back: just beat
                continue
            announce: Announce[MatchRecord] = Announce(self._extended(now - last), now)
            changed = await self.repository.extend_clocks(
                last, now, announce, shard_id=shard, shard_count=count)
            if changed is None:
                continue  # another process resumed this shard first and extended them
            events += [e for e in announce.events if isinstance(e, ClocksExtended)]
        if fresh:
            await self.repository.beat(now, fresh, count)
        await self._announce(events)
        return events

    def _extended(self, gap: timedelta) -> Callable[[MatchRecord], list[Event]]:
        """The notice of each match whose clock moved ``gap`` later."""
        return lambda s: [ClocksExtended(self._view(s), gap)]

    async def beat(self, now: datetime | None = None) -> None:
        """Store the heartbeat of this process's shards without extending anything: the
        clock was moved on on purpose (the console's ``/sweep +DAYS``)."""
        await self.repository.beat(now or self.clock.now(), self.shards.shard_ids,
                                   self.shards.count)
