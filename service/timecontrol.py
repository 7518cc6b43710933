"""Time controls and vacation allowances: pure values and arithmetic (no I/O, no clock).

A match runs one :class:`TimeControl`:

* **per move** (``"3"``, ``"3d"``): each turn has the same period; the old "N days per move"
  (every match stored before time controls reads as this).
* **bank with increment** (``"3d+1d/10d"``: 3 days to start, 1 day added after each move,
  at most 10 days banked): each seat owns a bank; his turn's deadline is the start of
  the turn plus his bank; when he moves, what is left (the deadline minus the moment he
  moved) plus the increment, capped, is his new bank. Durations are exact (hours count).

Vacation time and the downtime extension move a deadline later; vacation time must not
be banked, so a turn paused by a vacation remembers when the pause ends
(``paused_until``) and the bank counts from then (:func:`bank_after_move`).

>>> tc = parse_time_control("3d+1d/10d")
>>> format_time_control(tc), tc.is_bank, tc.cap.days
('3d+1d/10d', True, 10)
>>> format_time_control(parse_time_control(" 36h + 12h max 5d "))
'36h+12h/5d'
>>> parse_time_control("2").per_move.days
2
>>> describe_time_control(parse_time_control("3h")).render("en-US")
'3 hours per move'
>>> describe_time_control(parse_time_control("1h+0h/1h")).render("en-US")
'1 hour for the whole game, no time added per move'
>>> describe_time_control(tc).render("en-US")
'3 days + 1 day per move, at most 10 days banked'
>>> vacation_earned(14, 1), vacation_earned(14, 6), vacation_earned(14, 12)
(1, 7, 14)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from locales.i18n import Text, Words, _, _n, command
from service.weekends import ALWAYS, Calendar

DAY = timedelta(days=1)
MIN_DAYS, MAX_DAYS = 1, 14
"""Days per move (the stored ``days_per_move`` column holds 1-14)."""
MIN_BANK = timedelta(hours=1)
MAX_BANK = timedelta(days=60)
MAX_INCREMENT = timedelta(days=14)


class TimeControlError(ValueError):
    """A time control that does not read or is out of range; ``text`` is the input.

    >>> try:
    ...     parse_time_control("3d+1d/2d")
    ... except TimeControlError as e:
    ...     e.text, e.message.render("en-US")
    ('3d+1d/2d', 'the cap (2 days) must be at least the starting bank (3 days)')
    """

    def __init__(self, text: str, message: Text) -> None:
        super().__init__(message.render("en-US"))
        self.text = text
        self.message = message


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Either ``per_move`` (a period per turn) or a bank (``bank`` to start,
    ``increment`` after each move, at most ``cap``)."""

    per_move: timedelta | None = None
    bank: timedelta | None = None
    increment: timedelta = timedelta(0)
    cap: timedelta | None = None

    @property
    def is_bank(self) -> bool:
        return self.bank is not None

    @property
    def start(self) -> timedelta:
        """The time a seat has for its first turn."""
        period = self.bank if self.bank is not None else self.per_move
        assert period is not None
        return period

    @property
    def days_column(self) -> int:
        """What the legacy ``days_per_move`` column holds (1-14): the whole days of a
        turn, rounded up and clamped, for a bank."""
        return min(MAX_DAYS, max(MIN_DAYS, math.ceil(self.start / DAY)))

    @staticmethod
    def days(n: int) -> TimeControl:
        return TimeControl(per_move=timedelta(days=n))


_AMOUNT = r"(\d{1,4}(?:[.,]\d{1,3})?)\s*(d|h|days?|hours?)?"
_SYNTAX = re.compile(rf"^{_AMOUNT}(?:\s*\+\s*{_AMOUNT}(?:\s*(?:/|max|cap)\s*{_AMOUNT})?)?$",
                     re.IGNORECASE | re.ASCII)


def _amount(number: str, unit: str | None) -> timedelta:
    value = float(number.replace(",", "."))
    return timedelta(hours=value) if unit and unit.lower().startswith("h") \
        else timedelta(days=value)


def _days_text(d: timedelta) -> Text:
    if d % DAY == timedelta(0):
        return _n("{count} day", "{count} days", d // DAY)
    return _n("{count} hour", "{count} hours", math.ceil(d / timedelta(hours=1)))


def parse_time_control(text: str) -> TimeControl:
    """``"3"`` / ``"3d"`` (days per move) or ``"3d+1d/10d"`` (bank + increment / cap;
    ``h`` for hours, plain numbers are days, ``max`` may replace ``/``; no cap = the
    starting bank). Raises :class:`TimeControlError` carrying the input."""
    if not isinstance(text, str) or len(text) > 40:
        raise TimeControlError(str(text)[:40], _("a time control is short text like 3 or "
                                                 "3d+1d/10d"))
    return _parse(text)


@lru_cache(maxsize=256)  # read with every stored match: a few distinct texts
def _parse(text: str) -> TimeControl:
    found = _SYNTAX.match(text.strip())
    if found is None:
        raise TimeControlError(text, _("“{text}” is not a time control: write days per move "
                                       "(3) or a bank with increment (3d+1d/10d)", text=text))
    n1, u1, n2, u2, n3, u3 = found.groups()
    first = _amount(n1, u1)
    if n2 is None and first % DAY and u1 is not None and u1.lower().startswith("h"):
        # hours alone ("3h") mean hours per move: a bank refilled to its size after every
        # move (per-move controls are whole days: they live in the days column; "2.5"
        # days stays refused)
        if not MIN_BANK <= first <= MAX_INCREMENT:
            raise TimeControlError(text, _("hours per move must be from 1 hour to 14 days"))
        return TimeControl(bank=first, increment=first, cap=first)
    if n2 is None:
        if first % DAY or not MIN_DAYS <= first // DAY <= MAX_DAYS:
            raise TimeControlError(text, _("days per move must be a whole number from "
                                           "{low} to {high}", low=MIN_DAYS, high=MAX_DAYS))
        return TimeControl(per_move=first)
    increment = _amount(n2, u2)
    cap = _amount(n3, u3) if n3 is not None else first
    if not MIN_BANK <= first <= MAX_BANK:
        raise TimeControlError(text, _("the starting bank must be from 1 hour to 60 days"))
    if increment > MAX_INCREMENT:
        raise TimeControlError(text, _("the increment must be at most 14 days"))
    if cap < first:
        raise TimeControlError(text, _("the cap ({cap}) must be at least the starting bank "
                                       "({bank})", cap=_days_text(cap),
                                       bank=_days_text(first)))
    if cap > MAX_BANK:
        raise TimeControlError(text, _("the cap must be at most 60 days"))
    return TimeControl(bank=first, increment=increment, cap=cap)


def _compact(d: timedelta) -> str:
    if d % DAY == timedelta(0):
        return f"{d // DAY}d"
    return f"{math.ceil(d / timedelta(hours=1))}h"


def format_time_control(tc: TimeControl) -> str:
    """The canonical text, read back by :func:`parse_time_control` (stored as it is)."""
    if not tc.is_bank:
        return _compact(tc.start)
    assert tc.bank is not None and tc.cap is not None
    return f"{_compact(tc.bank)}+{_compact(tc.increment)}/{_compact(tc.cap)}"


def with_claim(pace: Words, claim_win: bool) -> Words:
    """``pace`` (a control in words) followed by ", claim win on time" when a lapsed clock
    waits for the opponent's claim: one wording for challenges, the console and
    tournaments."""
    return _("{pace}, claim win on time", pace=pace) if claim_win else pace


def with_weekends(pace: Words, weekends_off: bool) -> Words:
    """``pace`` followed by ", weekends off" when no clock runs on its player's weekend
    (challenges, boards, the console and tournaments say it alike)."""
    return _("{pace}, weekends off", pace=pace) if weekends_off else pace


def weekends_in_utc(players: Words) -> Text:
    """Said with weekends off where it matters (a board, a turn): whose weekend is
    counted in UTC because he set no time zone."""
    return _("weekends in UTC for {players}, who set no time zone ({timezone})",
             players=players, timezone=command("timezone"))


def stood_in(player: Words, since: int) -> Text:
    """A seat the computer plays since his time ran out (issue 43): ``'alice (computer
    since move 40)'``, on boards, lists and the console alike."""
    return _("{player} (computer since move {move})", player=player, move=since)


def as_seated(player: Words, stand_in: int | None, skipped: int | None) -> Words:
    """A seat's player as boards, lists and the console show him after a timeout (issue
    43): ``'alice (computer since move 40)'`` (:func:`stood_in`), ``'alice (skipped
    since move 40)'`` (his turns are skipped, he ranks last), else ``player``.

    >>> as_seated("alice", None, 40).render("en-US")
    'alice (skipped since move 40)'
    """
    if stand_in is not None:
        return stood_in(player, stand_in)
    if skipped is not None:
        return _("{player} (skipped since move {move})", player=player, move=skipped)
    return player


def describe_time_control(tc: TimeControl) -> Text:
    """The time control in words for people."""
    if not tc.is_bank:
        return _n("{count} day per move", "{count} days per move", tc.start // DAY) \
            if tc.start % DAY == timedelta(0) else _("{period} per move",
                                                     period=_days_text(tc.start))
    assert tc.bank is not None and tc.cap is not None
    if tc.bank == tc.increment == tc.cap:  # refilled after every move: so much per move
        return _("{period} per move", period=_days_text(tc.bank))
    if not tc.increment:  # nothing is added: the cap can never matter
        return _("{bank} for the whole game, no time added per move",
                 bank=_days_text(tc.bank))
    return _("{bank} + {increment} per move, at most {cap} banked",
             bank=_days_text(tc.bank), increment=_days_text(tc.increment),
             cap=_days_text(tc.cap))


def bank_after_move(tc: TimeControl, deadline: datetime | None, paused_until: datetime | None,
                    moved_at: datetime, calendar: Calendar = ALWAYS) -> timedelta:
    """A seat's new bank when it moved at ``moved_at``: what its deadline left it (counted
    from the end of a vacation pause, never below zero; in running time of his
    ``calendar``: a weekend off is not banked) plus the increment, at most the cap.

    >>> from datetime import UTC
    >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
    >>> tc = parse_time_control("3d+1d/10d")
    >>> bank_after_move(tc, t0 + 3 * DAY, None, t0 + DAY)          # 2 left + 1
    datetime.timedelta(days=3)
    >>> bank_after_move(tc, t0 + 12 * DAY, None, t0)               # capped
    datetime.timedelta(days=10)
    >>> bank_after_move(tc, t0 + 8 * DAY, t0 + 5 * DAY, t0 + DAY)  # moved on vacation
    datetime.timedelta(days=4)
    """
    assert tc.cap is not None
    left = timedelta(0) if deadline is None \
        else calendar.running(max(moved_at, paused_until or moved_at), deadline)
    return min(tc.cap, max(timedelta(0), left) + tc.increment)


def reminder_for(start: datetime, deadline: datetime, calendar: Calendar = ALWAYS
                 ) -> datetime:
    """When to remind: a day before the deadline, or half the turn if shorter, both in
    the running time of the player's ``calendar``; moved out of his night when he set a
    time zone (``Calendar.sensible``).

    >>> from datetime import UTC
    >>> t0 = datetime(2026, 1, 5, 12, tzinfo=UTC)
    >>> reminder_for(t0, t0 + 3 * DAY).isoformat()
    '2026-01-07T12:00:00+00:00'
    >>> reminder_for(t0, t0 + 3 * DAY, Calendar(False, "Asia/Tokyo")).isoformat()
    '2026-01-07T12:00:00+00:00'
    >>> reminder_for(t0, t0 + 3 * DAY, Calendar(False, "America/Los_Angeles")).isoformat()
    '2026-01-07T16:00:00+00:00'
    """
    period = calendar.running(start, deadline)
    remind = calendar.retreat(deadline, min(DAY, period / 2), start)
    return calendar.sensible(remind, start, deadline)


# ---------------------------------------------------------------------- vacation

DEFAULT_VACATION_DAYS = 14
MAX_VACATION_DAYS = 60

# ---------------------------------------------------------------------- pause by agreement

MAX_PAUSE_DAYS = 30
"""The longest pause by agreement, in whole days."""
MAX_PAUSES_RATED = 10
"""The most pauses a server may let a rated match have (``GuildSettings.pauses_rated``)."""


def vacation_earned(yearly_days: int, month: int) -> int:
    """Days of vacation earned in a calendar year by the start of ``month`` (1-12): a
    twelfth of the yearly allowance at the start of each month (UTC), rounded down
    cumulatively, so the whole allowance is there from December 1st. Unused days do not
    carry over into the next year."""
    return yearly_days * month // 12


def vacation_days_charged(started: datetime, ended: datetime) -> int:
    """Whole days a vacation costs: the time it lasted, rounded up to a day.

    >>> from datetime import UTC
    >>> t = datetime(2026, 3, 1, tzinfo=UTC)
    >>> vacation_days_charged(t, t), vacation_days_charged(t, t + timedelta(hours=1))
    (0, 1)
    """
    return math.ceil(max(timedelta(0), ended - started) / DAY)
