"""What the service says about a match in words: players named by seat, who is to move,
the line a board image shows when the match is over, and the one-line description of a
position (alt text). The sentence for how a match ended comes from ``locales.results``
(one place for every medium); this module only names the people in it.

Everything here works from a ``MatchView`` (what the service hands out), so the service
and the adapters that draw boards from events say the same thing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import timedelta

from bot.service.ports import NameResolver
from bot.service.views import MatchView, ResultView
from locales.results import result_sentence
from rules import Position
from rules.core import reason_text

log = logging.getLogger(__name__)


def seat_names(match: MatchView, names: NameResolver | None) -> list[str] | None:
    """Display names by seat through ``names`` (the seat's colour for an unknown or
    empty seat); None without a resolver (boards then show the colours)."""
    if names is None:
        return None
    out: list[str] = []
    for s in match.seats:
        name = s.name
        if s.user_id is not None:
            try:
                name = names(match.guild_id, s.user_id) or name
            except Exception:  # a name is decoration: never fail a board for it
                log.exception("name lookup failed for user %s", s.user_id)
        out.append(name)
    return out


def labels(match: MatchView, seats: Iterable[int], names: Sequence[str] | None) -> str:
    """``'Black (bob)'`` per seat (the colour alone when the name is unknown), joined with
    "and": the seats a board line is about."""
    out = []
    for seat in sorted(seats):
        colour = match.seats[seat].name if seat < len(match.seats) else f"Seat {seat}"
        name = names[seat] if names and seat < len(names) else colour
        out.append(f"{colour} ({name})" if name and name != colour else colour)
    return " and ".join(out)


def who(match: MatchView, seats: Iterable[int], names: Sequence[str] | None) -> str:
    """``'alice (Red)'`` per seat (the colour alone without a name), joined with "and":
    who a message is about, as people know them."""
    out = []
    for seat in sorted(seats):
        colour = match.seats[seat].name if seat < len(match.seats) else f"Seat {seat}"
        name = names[seat] if names and seat < len(names) else ""
        out.append(f"{name} ({colour})" if name and name != colour else colour)
    return " and ".join(out)


def result_line(match: MatchView, names: Sequence[str] | None) -> str:
    """How an over match ended, for its board image: ``'Black (bob) wins: opponent
    resigned'``, ``'Draw: agreement'``, ``'Aborted: no move in time'``."""
    r = match.result
    if r is None:
        return match.status.value.capitalize()
    seats = {s.user_id: s.seat for s in match.seats if s.user_id is not None}

    def label(users: Iterable[int]) -> str:
        return labels(match, (seats[u] for u in users if u in seats), names)
    return result_sentence("board", r.kind, reason=r.reason, winners=label(r.winners),
                           winner_count=len(r.winners),
                           first=label(r.ranking[0]) if r.ranking else "")


def describe(match: MatchView, p: Position, names: Sequence[str] | None,
             moves: int | None = None) -> str:
    """A one-line description of the position (alt text): whose move it is (with the
    players' names when known), or how the match ended, even when the rules did not
    end it (a resignation, a timeout, an agreed draw). ``moves``: the moves played as
    players count them (set-up submissions and resignations are not moves); the
    record's plies when not known."""
    v = p.variant
    movers = who(match, p.to_move, names) if p.to_move else ""
    state = f"{movers} to move" if movers else "game over"
    if not match.status.is_live:
        r: ResultView | None = match.result
        state = "game over" + (f" ({reason_text(r.reason)})" if r is not None
                               else f" ({match.status.value})")
    last = f"; last move {match.last_move}" if match.last_move else ""
    n = match.ply if moves is None else moves
    said = f"{n} move{'' if n == 1 else 's'}"
    return f"{v.name}, match #{match.id}, after {said}: {state}{last}"


def duration(gap: timedelta) -> str:
    """A gap in the largest whole unit that fits: days, else hours, else minutes.

    >>> duration(timedelta(days=2, hours=5)), duration(timedelta(hours=1)), \\
    ...     duration(timedelta(seconds=30))
    ('2 days', '1 hour', '1 minute')
    """
    seconds = gap.total_seconds()
    for unit, size in (("day", 86400), ("hour", 3600)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'' if count == 1 else 's'}"
    count = max(1, int(seconds // 60))
    return f"{count} minute{'' if count == 1 else 's'}"


def offline_notice(gap: timedelta) -> str:
    """The one notice a match gets after Tablero was away (``ClocksExtended``).

    >>> offline_notice(timedelta(days=2, minutes=3))
    'Tablero was offline for 2 days; all clocks were extended'
    """
    return f"Tablero was offline for {duration(gap)}; all clocks were extended"
