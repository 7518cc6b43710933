"""Clock time: which instants a player's clock runs, in his own time zone (pure: no I/O).

With **weekends off** a match's clocks stop from Saturday 00:00 to Monday 00:00 in the
time zone of the player whose clock it is (``/settings timezone``, an IANA name; UTC for
a player who set none). A :class:`Calendar` is that rule for one player: it adds running
time to an instant (``advance``), measures the running time between two instants
(``running``) and steps back from a deadline (``retreat``). Without weekends off running
time is wall time, so every clock rule written as "deadline minus now" reads the same
through a calendar.

Local midnights come from ``zoneinfo``, so a weekend across a daylight-saving change is
23 or 25 hours plus a day, as the player lives it. Every function keeps two promises,
checked by property tests: a deadline never moves earlier than wall time would put it,
and no running time is lost (``running(a, advance(a, d)) == d``).

>>> from datetime import UTC
>>> madrid = Calendar(True, "Europe/Madrid")
>>> friday = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)            # 13:00 in Madrid
>>> madrid.advance(friday, timedelta(days=1)).isoformat()        # Monday 13:00 local
'2026-03-09T12:00:00+00:00'
>>> madrid.running(friday, datetime(2026, 3, 9, 12, 0, tzinfo=UTC))
datetime.timedelta(days=1)
>>> Calendar(False, "Europe/Madrid").advance(friday, timedelta(days=1)).isoformat()
'2026-03-07T12:00:00+00:00'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DAY = timedelta(days=1)
WEEK = timedelta(days=7)
SATURDAY = 5  # date.weekday()
MAX_ZONE_TEXT = 64

NIGHT_STARTS, NIGHT_ENDS = time(22), time(8)
"""A reminder is not sent in a player's night: from 22:00 to 08:00 in his time zone."""
EVENING = time(21)


@lru_cache(maxsize=512)
def zone_of(name: str | None) -> ZoneInfo:
    """The time zone called ``name`` (an IANA name already checked); UTC for None, and
    for a stored name this machine does not know (``localtime`` stored before it was
    refused, read on a host without the system database; a zone a later tzdata drops):
    one player's old setting must not stop his clocks, the sweep, or the console."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return ZoneInfo("UTC")


NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})
"""Names ``zoneinfo`` may list that name no place a player lives in: ``localtime`` is
the machine's own zone (a link to /etc/localtime where the system has a time zone
database: a player's weekends would move with the host Tablero runs on), ``Factory``
and ``posixrules`` are tzdata's placeholders."""


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone name the standard library knows, sorted (but
    :data:`NOT_PLACES`)."""
    return tuple(sorted(z for z in available_timezones() if z not in NOT_PLACES))


def checked_zone(text: str) -> str | None:
    """``text`` as a stored time zone name: the IANA name as ``zoneinfo`` spells it
    (case forgiven), or None when it names none. ``UTC`` reads as itself.

    >>> checked_zone("europe/madrid"), checked_zone(" UTC "), checked_zone("Mars/Olympus")
    ('Europe/Madrid', 'UTC', None)
    >>> checked_zone("../../etc/passwd")
    """
    name = text.strip()
    if not name or len(name) > MAX_ZONE_TEXT or not name.isascii() or ".." in name \
            or name.startswith("/") or "\\" in name:
        return None
    by_lower = {z.lower(): z for z in zone_names()}
    found = by_lower.get(name.lower())
    if found is None:
        return None
    try:
        ZoneInfo(found)  # (zone_of forgives a name it cannot load: this must not)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
    return found


def local_clock(zone: str, now: datetime) -> str:
    """The time of day in ``zone`` at ``now`` with its offset from UTC: what a player who
    just set his zone checks it by (``Etc/GMT+2`` is two hours *behind* UTC, POSIX's
    sign; ``EST`` never keeps summer time: the answer shows either at once).

    >>> noon = datetime(2026, 1, 1, 12, tzinfo=UTC)
    >>> local_clock("Asia/Kolkata", noon), local_clock("Etc/GMT+2", noon)
    ('17:30 UTC+05:30', '10:00 UTC-02:00')
    """
    local = now.astimezone(zone_of(zone))
    offset = local.utcoffset() or timedelta(0)
    minutes = abs(offset) // timedelta(minutes=1)
    sign = "-" if offset < timedelta(0) else "+"
    return f"{local:%H:%M} UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def zones_like(prefix: str, limit: int = 25) -> list[str]:
    """Time zone names containing ``prefix`` (case forgiven), those starting with it
    first: what Discord's autocomplete offers.

    >>> zones_like("madr")
    ['Europe/Madrid']
    """
    wanted = prefix.strip().lower().replace(" ", "_")
    names = zone_names()
    first = [z for z in names if z.lower().startswith(wanted)]
    rest = [z for z in names if wanted in z.lower() and z not in first]
    return (first + rest)[:limit]


@dataclasses.dataclass(frozen=True, slots=True)
class Calendar:
    """When one player's clock runs: always, or (``weekends_off``) except from Saturday
    00:00 to Monday 00:00 in ``zone`` (None: UTC)."""

    weekends_off: bool = False
    zone: str | None = None

    def weekends(self, since: datetime) -> Iterator[tuple[datetime, datetime]]:
        """The weekends (start, end; UTC instants) that end after ``since``, in order."""
        tz = zone_of(self.zone)
        day = since.astimezone(tz).date()
        saturday = day - timedelta(days=(day.weekday() - SATURDAY) % 7)
        while True:
            start, end = _midnight(saturday, tz), _midnight(saturday + 2 * DAY, tz)
            if end > since:
                yield start, end
            saturday += WEEK

    def running(self, start: datetime, end: datetime) -> timedelta:
        """The time the clock runs from ``start`` to ``end`` (zero when ``end`` is not
        later)."""
        if end <= start:
            return timedelta(0)
        total = end - start
        if not self.weekends_off:
            return total
        for w_start, w_end in self.weekends(start):
            if w_start >= end:
                break
            total -= min(end, w_end) - max(start, w_start)
        return total

    def advance(self, start: datetime, duration: timedelta) -> datetime:
        """The instant at which the clock started at ``start`` has run ``duration``
        (``start`` itself for none, or the end of the weekend it falls inside: a clock
        with nothing left runs out when it runs again); never inside a weekend unless it
        ends one."""
        if not self.weekends_off:
            return start + max(duration, timedelta(0))
        if duration <= timedelta(0):
            return self.outside(start)
        at, left = start, duration
        for w_start, w_end in self.weekends(start):
            if w_start > at:
                if at + left <= w_start:
                    return at + left
                left -= w_start - at
            at = max(at, w_end)
        raise AssertionError  # pragma: no cover (unreachable: weekends never end)

    def retreat(self, end: datetime, duration: timedelta, floor: datetime) -> datetime:
        """The latest instant, not before ``floor``, from which the clock runs
        ``duration`` until ``end`` (``floor`` when it runs less since then): "a day
        before the deadline" in running time."""
        if not self.weekends_off:
            return max(floor, end - duration)
        at, left = end, duration
        for w_start, w_end in self._weekends_back(end):
            if w_end < at:  # the clock runs from the weekend's end to ``at``
                if at - left >= w_end:
                    return max(floor, at - left)
                left -= at - w_end
            at = min(at, w_start)
            if at <= floor:
                return floor
        raise AssertionError  # pragma: no cover (unreachable: weekends never end)

    def _weekends_back(self, before: datetime) -> Iterator[tuple[datetime, datetime]]:
        """The weekends that start before ``before``, latest first."""
        tz = zone_of(self.zone)
        day = before.astimezone(tz).date()
        saturday = day - timedelta(days=(day.weekday() - SATURDAY) % 7)
        while True:
            start = _midnight(saturday, tz)
            if start < before:
                yield start, _midnight(saturday + 2 * DAY, tz)
            saturday -= WEEK

    def resumes(self, at: datetime) -> datetime:
        """``at``, or the end of the weekend it falls in."""
        if not self.weekends_off:
            return at
        for w_start, w_end in self.weekends(at):
            return w_end if w_start <= at else at
        return at  # pragma: no cover

    def outside(self, deadline: datetime) -> datetime:
        """``deadline``, or the end of the weekend it falls inside (a weekend's first
        instant is not inside it: a clock that ran up to it ends there): where a deadline
        counted with another calendar (the player's former time zone) lands in this
        one, never earlier."""
        if not self.weekends_off:
            return deadline
        for w_start, w_end in self.weekends(deadline):
            return w_end if w_start < deadline else deadline
        return deadline  # pragma: no cover

    def moved(self, deadline: datetime, stopped: datetime, restarts: datetime) -> datetime:
        """``deadline`` once the clock stopped at ``stopped`` and runs again from
        ``restarts``: the running time left at ``stopped`` counted from ``restarts``.
        (A downtime, a pause, a vacation: each composes with the weekends, so a weekend
        inside the stop is not counted twice.) ``restarts`` before ``stopped``: a stop
        ended early gives back what it had added."""
        if restarts == stopped:
            return deadline
        if not self.weekends_off:
            return deadline + (restarts - stopped)
        if deadline <= stopped:  # nothing left when it stopped: never inside a weekend
            return self.outside(deadline + (restarts - stopped))
        return self.advance(restarts, self.running(stopped, deadline))

    def sensible(self, remind: datetime, start: datetime, deadline: datetime) -> datetime:
        """``remind``, or, when it falls in the player's night (22:00-08:00 in his zone),
        the nearer of the evening before (21:00) and the morning after (08:00) that lies
        between ``start`` and ``deadline``; ``remind`` when neither does, or when the
        player set no time zone (his night is not known)."""
        if self.zone is None:
            return remind
        tz = zone_of(self.zone)
        local = remind.astimezone(tz)
        clock = local.time()
        if NIGHT_ENDS <= clock < NIGHT_STARTS:
            return remind
        day = local.date()
        evening_day = day if clock >= NIGHT_STARTS else day - DAY
        morning_day = day + DAY if clock >= NIGHT_STARTS else day
        choices = [_at(evening_day, EVENING, tz), _at(morning_day, NIGHT_ENDS, tz)]
        fits = [c for c in choices if start <= c < deadline]
        if not fits:
            return remind
        return min(fits, key=lambda c: (abs(c - remind), c))


ALWAYS = Calendar()
"""A clock that runs at every instant (no weekends off, no time zone)."""


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    return _at(day, time(0), tz)


def _at(day: date, clock: time, tz: ZoneInfo) -> datetime:
    """``clock`` on ``day`` in ``tz``, as a UTC instant (a local time skipped by a
    daylight-saving change reads with the offset before it: the change's instant)."""
    return datetime.combine(day, clock, tz).astimezone(UTC)
