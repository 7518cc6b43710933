"""The clock's state on a match page (issue 43), in the reader's words, as ``/board`` says
it in Discord: the terms (pace, claim win, weekends off, rated or casual), a pause by
agreement proposed or in force (until when), a lapsed clock waiting for a claim; beside
each player, the computer playing his seat or his turns skipped since a timeout, his
vacation (until when) and, with weekends off, the time zone his weekend counts in (UTC
for a player who set none).

What is said, not the markup: each note is words and the time they name (``None``: none),
the time standing in the words as the ``mark`` the page gives (``pages`` escapes the words
and puts a ``<time>`` element there, shown in the reader's zone by its script).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from locales.i18n import Words, _, _n, capitalized, render
from locales.terms import seat_colour
from service.texts import terms
from service.timecontrol import as_seated
from service.views import MatchView, SeatView

Note = tuple[Words, datetime | None]
"""A sentence and the time it names (in the sentence as the page's mark), if any."""


def seated_name(match: MatchView, held: SeatView, name: str) -> Words:
    """The player's name as the page lists him: ``'alice (computer since move 40)'``,
    ``'alice (skipped since move 40)'`` after a timeout (``on_timeout``), else his name."""
    return as_seated(name, match.stand_in_since(held.user_id),
                     match.skipped_since(held.user_id))


def seat_notes(match: MatchView, held: SeatView, now: datetime, mark: str) -> list[Note]:
    """What the page says after a player's name while the match is live: on vacation
    until when, and with weekends off the time zone his weekend counts in."""
    if held.user_id is None or not match.status.is_live:
        return []
    notes: list[Note] = []
    until = match.away_until(held.user_id, now)
    if until is not None:
        notes.append((_("on vacation until {until}", until=mark), until))
    if match.weekends:
        zone = dict(match.time_zones).get(held.user_id)
        notes.append((_("weekends in {zone}", zone=zone) if zone
                      else _("weekends in UTC (no time zone set)"), None))
    return notes


def clock_notes(match: MatchView, names: Sequence[str], locale: str, now: datetime,
                mark: str) -> list[Note]:
    """The match's clock in sentences: its terms, the weekend rule, and while it is live
    a pause (in force until when, or proposed) and a lapsed clock waiting for a claim."""
    def name_of(user: int) -> str:
        seat = match.seat_of(user)
        if seat is None:
            return ""
        if seat < len(names) and names[seat]:
            return names[seat]
        return render(seat_colour(match.seats[seat].name), locale)

    notes: list[Note] = [(capitalized(terms(match)), None)]
    if match.weekends:
        notes.append((capitalized(_(
            "weekends off: no clock runs from Saturday 00:00 to Monday 00:00 in the time "
            "zone of the player whose clock it is")), None))
    if not match.status.is_live:
        return notes
    paused = match.pause_ends(now)
    if paused is not None:
        notes.append((capitalized(_("paused by agreement until {until}", until=mark)),
                      paused))
    elif match.pause_offer_by is not None:
        notes.append((_n(  # a name begins it: as the player wrote it, never capitalised
            "{player} proposes to pause the match for {count} day; waiting for an answer",
            "{player} proposes to pause the match for {count} days; waiting for an answer",
            match.pause_offer_days, player=name_of(match.pause_offer_by)), None))
    if match.lapsed is not None:
        notes.append((capitalized(_("time ran out {when}; waiting for a claim", when=mark)),
                      match.lapsed))
    return notes
