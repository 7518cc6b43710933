"""Leaderboard seasons: what a season is, when one ends, which one a result counts in.
Pure (no I/O); the repositories call :func:`season_for` inside the transaction that
rates a match, and the service (``season_service.py``) runs the use-cases.

Decisions (the issue left them open):

* A server's seasons follow one **schedule**: ``monthly`` or ``quarterly`` (calendar
  months / quarters in **UTC**, ending at 00:00 UTC on the first day of the next one),
  ``manual`` (a season lasts until an organiser resets it), or ``off``.
* A **season rating** is openskill (the all-time model) from a fresh prior over the rated
  games that ended in the season; the season's board ranks like the all-time board
  (fewer than ``PROVISIONAL_GAMES`` games in the season: provisional, after the
  established players). The all-time ratings go on unchanged.
* A match counts in the season in which it **ended** (a match that straddles a boundary
  counts in the new season).
* A season's ratings are archived when it ends (they are never written again) and its
  final board is announced once. After a stop, the sweep closes the season that ended
  meanwhile and opens the one holding the present; periods that passed entirely while
  the bot was down (no game can end then) are not seasons.
* Changing the schedule (monthly, quarterly, manual) does not end the running season:
  it goes on under the new schedule, its end moved to the new one's (the end of this
  month or quarter, or none for manual). A season ends only when someone asks: a reset
  (ends it and starts the next) or turning seasons off (ends it; the reply and ``/help``
  say so). Turning seasons on starts one at once. Each end is announced like any
  other. Seasons are numbered 1, 2, ... per server.

>>> at = datetime(2026, 11, 25, 17, 30, tzinfo=UTC)
>>> [d.isoformat() for d in period_of(Schedule.QUARTERLY, at)]
['2026-10-01T00:00:00+00:00', '2027-01-01T00:00:00+00:00']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Protocol

from locales.i18n import Text, _
from service.errors import InvalidOption
from service.records import OutboxEntry, RatingRecord


class NoSuchSeason(InvalidOption):
    """The server has no season with that number (or no seasons at all)."""


class Schedule(StrEnum):
    """How a server's seasons end."""

    OFF = "off"
    MONTHLY = "monthly"
    QUARTERLY = "quarterly"
    MANUAL = "manual"

    @property
    def scheduled(self) -> bool:
        """Ends by the calendar (not by an organiser)."""
        return self in (Schedule.MONTHLY, Schedule.QUARTERLY)


def parse_schedule(text: object) -> Schedule:
    """``"Monthly "`` -> ``Schedule.MONTHLY``; anything else raises ValueError.

    >>> parse_schedule(" Quarterly")
    <Schedule.QUARTERLY: 'quarterly'>
    """
    if not isinstance(text, str):
        raise ValueError(text)
    return Schedule(text.strip().lower())


def period_of(schedule: Schedule, at: datetime) -> tuple[datetime, datetime]:
    """The calendar month or quarter (UTC) holding ``at``: its first instant and the
    first instant after it.

    >>> [d.month for d in period_of(Schedule.MONTHLY, datetime(2026, 12, 31, 23, tzinfo=UTC))]
    [12, 1]
    """
    if not schedule.scheduled:
        raise ValueError(f"{schedule} seasons have no calendar")
    at = at.astimezone(UTC)
    months = 1 if schedule is Schedule.MONTHLY else 3
    first = (at.month - 1) // months * months  # 0-based month of the period's start
    start = datetime(at.year, first + 1, 1, tzinfo=UTC)
    after = first + months
    return start, datetime(at.year + after // 12, after % 12 + 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of a server. ``ends_at``: when it ends (a scheduled season knows it
    from the start; a manual one once it is reset); ``closed_at``: when its end was
    announced and its ratings archived (None until then). ``channel_id``: where its end
    is announced (the server's games channel, else where seasons were set up)."""

    guild_id: int
    number: int
    schedule: Schedule
    starts_at: datetime
    ends_at: datetime | None
    channel_id: int
    closed_at: datetime | None = None

    def holds(self, at: datetime) -> bool:
        """Whether a result at ``at`` counts in this season."""
        return self.starts_at <= at and (self.ends_at is None or at < self.ends_at)

    def name(self) -> Text:
        """How people see it: "Season 3 (2026-11-01 to 2026-12-01)".

        >>> SeasonRecord(1, 3, Schedule.MANUAL, datetime(2026, 11, 5, tzinfo=UTC), None,
        ...              9).name().render("en-US")
        'Season 3 (since 2026-11-05)'
        """
        start = self.starts_at.astimezone(UTC).date().isoformat()
        if self.ends_at is None:
            return _("Season {number} (since {start})", number=str(self.number), start=start)
        return _("Season {number} ({start} to {end})", number=str(self.number), start=start,
                 end=self.ends_at.astimezone(UTC).date().isoformat())


@dataclass(frozen=True, slots=True)
class SeasonChange:
    """What a schedule change left: the season running (None: seasons are off) and
    whether it began with the change (else it went on, its end moved)."""

    season: SeasonRecord | None
    began: bool

    def words(self) -> Text:
        """The change in words, for the organiser who made it."""
        if self.season is None:
            return _("Seasons are off: the all-time leaderboards go on.")
        if self.began:
            return _("{season} has started; the all-time leaderboards go on.",
                     season=self.season.name())
        return _("{season} goes on under the new schedule; only a reset (or turning "
                 "seasons off) ends it early.", season=self.season.name())


def opening(guild_id: int, number: int, schedule: Schedule, at: datetime, channel_id: int
            ) -> SeasonRecord:
    """The season an organiser starts at ``at`` (a scheduled one ends with the calendar
    period holding ``at``)."""
    ends = period_of(schedule, at)[1] if schedule.scheduled else None
    return SeasonRecord(guild_id, number, schedule, at, ends, channel_id)


def rescheduled(latest: SeasonRecord | None, schedule: Schedule, at: datetime
                ) -> SeasonRecord | None:
    """The running season ``latest`` carried on under ``schedule`` from ``at``: its end
    moved to the new schedule's (the calendar period holding ``at``; none for manual);
    None when no season is running then (or seasons are being turned off).

    >>> nov = opening(1, 4, Schedule.MONTHLY, datetime(2026, 11, 5, tzinfo=UTC), 9)
    >>> q = rescheduled(nov, Schedule.QUARTERLY, datetime(2026, 11, 9, tzinfo=UTC))
    >>> q.number, q.starts_at.day, q.ends_at.isoformat()
    (4, 5, '2027-01-01T00:00:00+00:00')
    >>> rescheduled(nov, Schedule.MANUAL, datetime(2026, 11, 9, tzinfo=UTC)).ends_at is None
    True
    >>> rescheduled(nov, Schedule.MANUAL, datetime(2026, 12, 2, tzinfo=UTC)) is None
    True
    """
    if latest is None or schedule is Schedule.OFF or latest.closed_at is not None or \
            (latest.ends_at is not None and latest.ends_at <= at):
        return None
    ends = period_of(schedule, at)[1] if schedule.scheduled else None
    return dataclasses.replace(latest, schedule=schedule, ends_at=ends)


def season_for(latest: SeasonRecord | None, schedule: Schedule, at: datetime
               ) -> tuple[SeasonRecord | None, SeasonRecord | None]:
    """The season a result at ``at`` counts in, given the server's newest season and
    its schedule; and the season to store first when the calendar moved on before
    anything noticed (the next one, holding ``at``), else None.

    >>> nov = opening(1, 1, Schedule.MONTHLY, datetime(2026, 11, 5, tzinfo=UTC), 9)
    >>> season_for(nov, Schedule.MONTHLY, datetime(2026, 11, 30, 23, tzinfo=UTC))[0] == nov
    True
    >>> counted, new = season_for(nov, Schedule.MONTHLY, datetime(2027, 1, 2, tzinfo=UTC))
    >>> counted == new, new.number, new.starts_at.isoformat()
    (True, 2, '2027-01-01T00:00:00+00:00')
    """
    if latest is None:
        return None, None
    if latest.holds(at):
        return latest, None
    if (schedule is latest.schedule and schedule.scheduled and latest.ends_at is not None
            and latest.ends_at <= at):
        start, end = period_of(schedule, at)
        new = SeasonRecord(latest.guild_id, latest.number + 1, schedule,
                           max(start, latest.ends_at), end, latest.channel_id)
        return new, new
    return None, None


SeasonOutboxFn = Callable[[SeasonRecord, Sequence[RatingRecord]], Sequence[OutboxEntry]]
"""Given a season as closed and its ratings (every ladder), the outbox entries that
announce its end (stored in the closing transaction)."""


class SeasonRepository(Protocol):
    """Season persistence. The season ratings themselves are written by ``save`` (a
    ``RatingChange`` with ``at``: the season :func:`season_for` names, in the same
    transaction, storing the new season it may return first)."""

    async def change_seasons(self, guild_id: int, schedule: Schedule, now: datetime,
                             channel_id: int, *, keep: bool = False) -> SeasonRecord | None:
        """In one transaction: store ``schedule`` in the guild's settings; with ``keep``
        and a season running, carry it on under ``schedule`` (``rescheduled``) and return
        it; else end the running season at ``now`` (if any) and, unless ``schedule`` is
        off, start the next one (``opening``), which is returned. ``Conflict`` if another
        process started one at the same time."""
        ...

    async def seasons_of(self, guild_id: int) -> list[SeasonRecord]:
        """The server's seasons, newest first."""
        ...

    async def seasons_due(self, now: datetime) -> list[SeasonRecord]:
        """Seasons (of every server) that have ended by ``now`` and were not closed."""
        ...

    async def close_season(self, season: SeasonRecord, now: datetime,
                           outbox: SeasonOutboxFn) -> SeasonRecord | None:
        """In one transaction, unless ``season`` is closed already (then None: another
        process did it): mark it closed at ``now``, open the next scheduled season if
        the calendar moved on and none was opened (``season_for``), and store the
        entries of ``outbox(closed season, its ratings)``. The closed season."""
        ...

    async def season_board(self, guild_id: int, season: int, ladder: str, offset: int,
                           limit: int) -> tuple[list[RatingRecord], int]:
        """A season's ratings on a ladder, ranked like ``leaderboard``, and how many."""
        ...

    async def season_rank_of(self, guild_id: int, season: int, ladder: str, user_id: int
                             ) -> tuple[int, RatingRecord] | None: ...
