"""Clock time with weekends off (issue 43), pure: the calendar of one player in his own
time zone, across daylight-saving changes, and the promises every clock rule leans on
(a deadline never moves earlier than wall time puts it, no running time is lost)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from locales.i18n import moment, moments_in
from service.timecontrol import bank_after_move, parse_time_control, reminder_for
from service.weekends import Calendar, checked_zone, zone_of, zones_like

DAY, HOUR = timedelta(days=1), timedelta(hours=1)
MADRID = Calendar(True, "Europe/Madrid")
TOKYO = Calendar(True, "Asia/Tokyo")
NEW_YORK = Calendar(True, "America/New_York")
UTC_WEEKENDS = Calendar(True, None)


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


def test_a_weekend_begins_at_different_utc_instants_for_different_zones() -> None:
    friday = at(2026, 3, 6, 12)
    # Saturday 00:00 local: 23:00 UTC Friday in Madrid (UTC+1), 15:00 UTC in Tokyo (UTC+9),
    # 05:00 UTC Saturday in New York (UTC-5)
    assert next(MADRID.weekends(friday)) == (at(2026, 3, 6, 23), at(2026, 3, 8, 23))
    assert next(TOKYO.weekends(friday)) == (at(2026, 3, 6, 15), at(2026, 3, 8, 15))
    assert next(NEW_YORK.weekends(friday)) == (at(2026, 3, 7, 5), at(2026, 3, 9, 4))
    # New York springs forward on Sunday 8 March: that weekend is an hour shorter
    start, end = next(NEW_YORK.weekends(friday))
    assert end - start == 2 * DAY - HOUR
    # the same day of running time from Friday noon UTC ends at a different instant
    assert MADRID.advance(friday, DAY) == at(2026, 3, 9, 12)  # 11 h Friday + 13 h Monday
    assert TOKYO.advance(friday, DAY) == at(2026, 3, 9, 12)   # 3 h Friday + 21 h Monday
    assert NEW_YORK.advance(friday, DAY) == at(2026, 3, 7, 5) + (DAY - 17 * HOUR) + \
        (at(2026, 3, 9, 4) - at(2026, 3, 7, 5))
    assert UTC_WEEKENDS.advance(friday, DAY) == at(2026, 3, 9, 12)


def test_a_deadline_that_would_fall_in_a_weekend_moves_past_it() -> None:
    thursday = at(2026, 1, 8, 12)  # 13:00 in Madrid
    plain = Calendar(False, "Europe/Madrid").advance(thursday, 3 * DAY)
    assert plain == at(2026, 1, 11, 12)  # a Sunday
    off = MADRID.advance(thursday, 3 * DAY)
    assert off == at(2026, 1, 13, 12)  # Tuesday 13:00 local: Sat and Sun did not count
    assert MADRID.running(thursday, off) == 3 * DAY
    # started inside a weekend, the clock starts on Monday 00:00 local
    saturday = at(2026, 1, 10, 10)
    assert MADRID.advance(saturday, HOUR) == at(2026, 1, 11, 23) + HOUR
    assert MADRID.resumes(saturday) == at(2026, 1, 11, 23)
    assert MADRID.resumes(thursday) == thursday


def test_daylight_saving_changes_inside_a_weekend_and_inside_a_turn() -> None:
    # Madrid springs forward on Sunday 29 March 2026 and falls back on Sunday 25 October
    spring = next(MADRID.weekends(at(2026, 3, 27, 12)))
    autumn = next(MADRID.weekends(at(2026, 10, 23, 12)))
    assert spring == (at(2026, 3, 27, 23), at(2026, 3, 29, 22))  # 47 hours
    assert autumn == (at(2026, 10, 23, 22), at(2026, 10, 25, 23))  # 49 hours
    # a 3-day turn from Friday noon local over each: Tuesday noon local, whatever the offset
    assert MADRID.advance(at(2026, 3, 27, 11), 3 * DAY) == at(2026, 4, 1, 10)
    assert MADRID.advance(at(2026, 10, 23, 10), 3 * DAY) == at(2026, 10, 28, 11)
    # a zone whose midnight does not exist on the change (Santiago: 00:00 -> 01:00)
    santiago = Calendar(True, "America/Santiago")
    start, end = next(santiago.weekends(at(2026, 9, 4, 12)))
    assert start < end and santiago.running(start, end) == timedelta(0)


def test_running_time_and_retreat_agree() -> None:
    monday_noon = at(2026, 1, 12, 12)  # 13:00 in Madrid
    # a day of running time before Monday 13:00 local is Friday 13:00 local
    assert MADRID.retreat(monday_noon, DAY, at(2026, 1, 1)) == at(2026, 1, 9, 12)
    assert MADRID.retreat(monday_noon, DAY, at(2026, 1, 10)) == at(2026, 1, 10)  # the floor
    assert Calendar().retreat(monday_noon, DAY, at(2026, 1, 1)) == monday_noon - DAY


def test_a_stop_across_a_weekend_is_not_counted_twice() -> None:
    """An outage (or a pause) from Friday noon to Monday noon, local: a deadline that
    skipped that weekend gets back the running time it lost (one day), not the three wall
    days of the gap, which would count the weekend a second time."""
    friday, monday = at(2026, 1, 9, 11), at(2026, 1, 12, 11)  # 12:00 in Madrid
    deadline = MADRID.advance(at(2026, 1, 8, 11), 3 * DAY)  # Thursday noon + 3 days
    assert deadline == at(2026, 1, 13, 11)  # Tuesday noon
    moved = MADRID.moved(deadline, friday, monday)
    assert moved == at(2026, 1, 14, 11)  # one running day later: Wednesday noon
    assert moved < deadline + (monday - friday)
    assert MADRID.running(monday, moved) == MADRID.running(friday, deadline)
    # a stop ended early gives back what it added; without weekends, plain arithmetic
    assert MADRID.moved(moved, monday, friday) == deadline
    assert Calendar().moved(deadline, friday, monday) == deadline + (monday - friday)


def test_reminders_keep_to_sensible_local_hours() -> None:
    start = at(2026, 1, 5, 3)
    deadline = start + 3 * DAY  # Thursday 03:00 UTC
    # without a time zone: a day before, as ever (03:00 UTC)
    assert reminder_for(start, deadline) == deadline - DAY
    # in Madrid that is 04:00: the nearer sensible hour is 08:00 the same morning
    assert reminder_for(start, deadline, Calendar(False, "Europe/Madrid")) == \
        at(2026, 1, 7, 7)
    # in Los Angeles it is 19:00 the evening before: sensible already
    assert reminder_for(start, deadline, Calendar(False, "America/Los_Angeles")) == \
        deadline - DAY
    # a short turn (2 hours) at night has no sensible hour inside it: half the turn
    night = at(2026, 1, 5, 1)
    assert reminder_for(night, night + 2 * HOUR, Calendar(False, "Europe/Madrid")) == \
        night + HOUR
    # with weekends off, a day before a Monday noon deadline in running time is Friday
    # noon; half of a turn from Friday noon (a day of running time) is Monday 00:00, in
    # the night: Sunday 21:00 local, the evening before
    monday = at(2026, 1, 12, 11)
    assert reminder_for(at(2026, 1, 6, 11), monday, MADRID) == at(2026, 1, 9, 11)
    assert reminder_for(at(2026, 1, 9, 11), monday, MADRID) == at(2026, 1, 11, 20)
    # in UTC: 11 hours on Monday and the last hour of Friday
    assert reminder_for(at(2026, 1, 9, 11), monday, UTC_WEEKENDS) == at(2026, 1, 9, 23)


def test_a_bank_never_banks_a_weekend() -> None:
    tc = parse_time_control("3d+1d/10d")
    friday_noon = at(2026, 1, 9, 11)  # Madrid
    deadline = MADRID.advance(friday_noon, 3 * DAY)
    moved_monday = at(2026, 1, 12, 11)  # used Friday afternoon and Monday morning: 1 day
    assert bank_after_move(tc, deadline, None, moved_monday, MADRID) == 3 * DAY
    assert bank_after_move(tc, deadline, None, moved_monday) == 3 * DAY + \
        (deadline - moved_monday) - 2 * DAY


def test_time_zone_names_are_checked_with_zoneinfo() -> None:
    assert checked_zone("Europe/Madrid") == "Europe/Madrid"
    assert checked_zone("  america/NEW_york ") == "America/New_York"
    for bad in ("", "Madrid", "Europe/Atlantis", "/etc/localtime", "../zoneinfo/UTC",
                "Europe\\Madrid", "Europe/Madrid\x00", "x" * 100, "Éurope/Madrid"):
        assert checked_zone(bad) is None, bad
    assert zones_like("new_y") == ["America/New_York"]
    assert zones_like("madrid") == ["Europe/Madrid"]
    assert len(zones_like("america")) == 25
    assert all(z.startswith("Europe/") for z in zones_like("europe/"))


ZONES = st.sampled_from(["UTC", "Europe/Madrid", "America/New_York", "Asia/Tokyo",
                         "Australia/Lord_Howe", "America/Santiago", "Pacific/Kiritimati",
                         "Asia/Kathmandu", "America/St_Johns", "Europe/London"])
INSTANTS = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2028, 12, 31),
                        timezones=st.just(UTC))
DURATIONS = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=70))


@settings(max_examples=300, deadline=None)
@given(zone=ZONES, off=st.booleans(), start=INSTANTS, duration=DURATIONS)
def test_advance_never_loses_time_and_never_comes_earlier(zone: str, off: bool,
                                                           start: datetime,
                                                           duration: timedelta) -> None:
    cal = Calendar(off, zone)
    end = cal.advance(start, duration)
    assert end >= start + duration  # never earlier than wall time
    assert abs(cal.running(start, end) - duration) < timedelta(microseconds=2)  # none lost
    if duration and off:  # ends where the clock runs (or the moment a weekend ends)
        assert all(not (ws < end < we) for ws, we in _first(cal, start, 12))


@settings(max_examples=300, deadline=None)
@given(zone=ZONES, start=INSTANTS, deadline_after=DURATIONS,
       stop_at=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=20)),
       gap=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=20)))
def test_a_stop_moves_a_deadline_later_by_the_running_time_lost_and_no_more(
        zone: str, start: datetime, deadline_after: timedelta, stop_at: timedelta,
        gap: timedelta) -> None:
    cal = Calendar(True, zone)
    deadline = cal.advance(start, deadline_after)
    stopped = start + stop_at
    restarts = stopped + gap
    moved = cal.moved(deadline, stopped, restarts)
    assert moved >= deadline  # a stop never takes time away
    if deadline > stopped:
        # what was left when it stopped is left when it restarts: nothing lost or added
        left = cal.running(stopped, deadline)
        assert abs(cal.running(restarts, moved) - left) < timedelta(microseconds=2)
        # and no later than the first instant that gives it back
        assert not left or cal.running(restarts, moved - timedelta(seconds=1)) < left


def _first(cal: Calendar, since: datetime, n: int) -> list[tuple[datetime, datetime]]:
    out = []
    for w in cal.weekends(since):
        out.append(w)
        if len(out) == n:
            break
    return out


def test_the_host_s_own_zone_and_tzdata_s_placeholders_are_no_time_zone() -> None:
    """``localtime`` is whatever zone the machine Tablero runs on is set to (a link to
    /etc/localtime where the system has a time zone database, nothing where it has
    none): a player's weekends must not move with the host. ``Factory`` and
    ``posixrules`` are tzdata's placeholders, no place anybody lives in."""
    for name in ("localtime", "LOCALTIME", "Factory", "posixrules"):
        assert checked_zone(name) is None, name
    assert zones_like("localtime") == [] and zones_like("factory") == []
    assert checked_zone("Europe/Berlin") == "Europe/Berlin"


def test_a_stored_zone_this_machine_does_not_know_reads_as_utc() -> None:
    """A name stored while it was known (``localtime``, accepted before it was refused,
    on a host without the system database; a zone a later tzdata drops) must not stop
    its player's clocks, the sweep, or every line the console prints: it reads as UTC."""
    gone = "Atlantis/Nowhere"
    assert zone_of(gone) == zone_of(None)
    friday = at(2026, 3, 6, 12)
    assert Calendar(True, gone).advance(friday, DAY) == UTC_WEEKENDS.advance(friday, DAY)
    assert reminder_for(friday, friday + 3 * DAY, Calendar(False, gone)) == friday + 2 * DAY
    with moments_in(gone):
        assert moment(friday).render("en-US") == "2026-03-06 12:00 UTC"
