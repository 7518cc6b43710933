"""The daily digest (issue 42): a person who asks for it (``/follow digest:on``) is sent
his games in a server at a glance once a day (``Queries.glance``: his own live games, the
matches he follows, his followed players' games), privately.

When one falls due, the sweep writes it into the outbox in the same transaction that moves
the next one a day on (``DigestStore.advance_digest``, compare-and-set on when it was
due), so it goes out exactly once whoever sweeps, and after a restart the outbox delivers
what was written. After a long stop it is sent once, not once for every day missed; a
day with no live game to show sends nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from service.core import ServiceCore
from service.events import DigestDue, Event
from service.outbox import entry_of
from service.queries import Queries
from service.views import notice_lane

DAY = timedelta(days=1)


def next_after(due: datetime, now: datetime) -> datetime:
    """The first time after ``now`` a day, or whole days, after ``due``: one digest
    however long Tablero was away, the same time of day as before.

    >>> from datetime import UTC
    >>> t = datetime(2026, 1, 1, 9, tzinfo=UTC)
    >>> next_after(t, t + timedelta(hours=1)), next_after(t, t + timedelta(days=3, hours=1))
    (datetime.datetime(2026, 1, 2, 9, 0, tzinfo=datetime.timezone.utc), \
datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.timezone.utc))
    """
    days = max(1, int((now - due) / DAY) + 1)
    return due + days * DAY


def digest_key(user: int, due: datetime) -> int:
    """The version keying a digest's outbox entry apart in its server's notice lane
    (``views.notice_lane``): the second it fell due and the user's low bits, far above
    the season numbers that lane also carries (a live event finds its entry by it).

    >>> from datetime import UTC
    >>> digest_key(7, datetime(2026, 1, 1, tzinfo=UTC)) > 10**15
    True
    """
    return (int(due.timestamp()) << 20) | (user & 0xFFFFF)


class Digests:
    """Asking for the daily digest, and the sweep that sends the digests due."""

    def __init__(self, core: ServiceCore, queries: Queries) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.shards = core.shards
        self._notify = core.notify
        self._queries = queries

    async def set_digest(self, guild_id: int, user: int, on: bool) -> datetime | None:
        """Send ``user`` his games in ``guild_id`` at a glance once a day (the first a
        day from now), or no more (``on`` False); when the next one is due."""
        when = self.clock.now() + DAY if on else None
        await self.repository.set_digest(user, guild_id, when)
        return when

    async def digest_status(self, guild_id: int, user: int) -> datetime | None:
        """When ``user``'s next digest in ``guild_id`` is due (None: he asked for none)."""
        return await self.repository.digest_of(user, guild_id)

    async def sweep_digests(self, now: datetime | None = None) -> list[Event]:
        """Send every digest due at ``now`` (this process's servers only): each once."""
        now = now or self.clock.now()
        sent: list[Event] = []
        for user, guild_id, due in await self.repository.due_digests(now):
            if not self.shards.owns(guild_id):
                continue
            games = tuple(await self._queries.glance(guild_id, user))
            event = None
            entries = []
            if games:
                event = DigestDue(notice_lane(guild_id, 0, digest_key(user, due)), user,
                                  games)
                entries = [entry_of(event, 0, now)]
            if not await self.repository.advance_digest(user, guild_id, due,
                                                        next_after(due, now), entries):
                continue  # another process sent it, or he turned it off meanwhile
            if event is not None:
                await self._notify(event)
                sent.append(event)
        return sent
