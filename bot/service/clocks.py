"""Clocks never run while Tablero is away.

The running bot (or console) stores a heartbeat. When it resumes after a gap longer than
``grace`` — the process was down, or it was cut off from Discord — every active deadline
and reminder time is moved later by the gap, in one transaction, before the next sweep
can time anybody out, and each such match gets one ``ClocksExtended`` notice. The
extension is a compare-and-set on the heartbeat, so two processes resuming at once extend
once. Time moves only through the ``Clock`` port, so tests drive it by hand.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.service.core import ServiceCore
from bot.service.events import ClocksExtended
from bot.service.outbox import Announce
from bot.service.records import MatchRecord

DEFAULT_GRACE = timedelta(minutes=5)
"""A gap up to this long is normal running (a sweep interval or a few, a quick restart)."""


class ClocksMixin(ServiceCore):
    """``resume``: the heartbeat, and the extension of every clock after a gap."""

    async def resume(self, grace: timedelta = DEFAULT_GRACE, now: datetime | None = None
                     ) -> list[ClocksExtended]:
        """Beat the heartbeat; after a gap longer than ``grace`` since the last beat,
        first move every active match's clock later by the gap and tell each match.

        Call it at start-up before the first sweep and before every sweep after that;
        don't call it while cut off from Discord (the gap then shows when back)."""
        now = now or self.clock.now()
        last = await self.repository.heartbeat()
        if last is None or now - last <= grace:
            await self.repository.beat(now)  # also a clock set back: just beat
            return []
        announce: Announce[MatchRecord] = Announce(
            lambda s: [ClocksExtended(self._view(s), now - last)], now)
        changed = await self.repository.extend_clocks(last, now, announce)
        if changed is None:
            return []  # another process resumed first and extended the clocks
        events = [e for e in announce.events if isinstance(e, ClocksExtended)]
        await self._announce(events)
        return events

    async def beat(self, now: datetime | None = None) -> None:
        """Store the heartbeat without extending anything: the clock was moved on
        on purpose (the console's ``/sweep +DAYS``)."""
        await self.repository.beat(now or self.clock.now())
